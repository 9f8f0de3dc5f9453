#include "timechart.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
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

QColor seriesColour(int i)
{
    static const QColor palette[] = {QColor(0x27, 0xae, 0x60), QColor(0x29, 0x80, 0xb9), QColor(0x8e, 0x44, 0xad),
                                     QColor(0xe6, 0x7e, 0x22), QColor(0xc0, 0x39, 0x2b), QColor(0x7f, 0x8c, 0x8d)};
    return palette[std::size_t(i) % std::size(palette)];
}

} // namespace timechart
