#include "timechart.h"

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

namespace timechart {

QChartView* makeView(const QString& title, const QString& unit)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    auto* x = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%g"));
    x->setTitleText(QCoreApplication::translate("TimeChart", "seconds"));
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.4g"));
    y->setTickCount(5);
    y->setTitleText(unit);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(200);
    return view;
}

void addLine(QChartView* view, const QString& name, const QColor& colour, const QList<QPointF>& points)
{
    QChart* chart = view->chart();
    QList<QPointF> piece;
    bool first = true;
    auto flush = [&] {
        if (piece.isEmpty() && !first)
            return;
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(colour, 2));
        s->replace(piece);
        chart->addSeries(s);
        for (auto* axis : chart->axes())
            s->attachAxis(axis);
        if (!first)
            for (auto* marker : chart->legend()->markers(s))
                marker->setVisible(false);
        first = false;
        piece.clear();
    };
    for (const QPointF& p : points) {
        if (std::isnan(p.y()))
            flush();
        else
            piece << p;
    }
    flush();
}

void addEventMarks(QChartView* view, const QList<QPair<double, QString>>& events, double top, bool inLegend)
{
    QChart* chart = view->chart();
    for (const auto& [at, label] : events) {
        auto* mark = new QLineSeries;
        mark->setName(label);
        QPen pen(QColor(0x88, 0x4e, 0xa0));
        pen.setStyle(Qt::DotLine);
        mark->setPen(pen);
        mark->append(at, 0);
        mark->append(at, top);
        chart->addSeries(mark);
        for (auto* axis : chart->axes())
            mark->attachAxis(axis);
        if (!inLegend)
            for (auto* marker : chart->legend()->markers(mark))
                marker->setVisible(false);
    }
}

QColor seriesColour(int i)
{
    static const QColor palette[] = {QColor(0x27, 0xae, 0x60), QColor(0x29, 0x80, 0xb9), QColor(0x8e, 0x44, 0xad),
                                     QColor(0xe6, 0x7e, 0x22), QColor(0xc0, 0x39, 0x2b), QColor(0x7f, 0x8c, 0x8d)};
    return palette[std::size_t(i) % std::size(palette)];
}

} // namespace timechart
