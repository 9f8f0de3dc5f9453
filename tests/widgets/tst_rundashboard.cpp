// The live dashboard keeps a bounded number of points however long the run.
#include "rundashboard.h"
#include "runsession.h"

#include <QElapsedTimer>
#include <QTableWidget>
#include <QTest>

class TestRunDashboard : public QObject
{
    Q_OBJECT
private slots:
    void compactKeepsTheShape()
    {
        QList<QPointF> pts;
        for (int i = 1; i <= 601; ++i)
            pts << QPointF(i, i % 10 == 0 ? 100 : 1);
        RunDashboard::compact(pts, true);
        QVERIFY(pts.size() <= RunDashboard::kMaxPoints);
        QCOMPARE(pts.last(), QPointF(601, 1)); // the newest points stay as they were
        double peak = 0;
        for (const auto& p : pts)
            peak = std::max(peak, p.y());
        QCOMPARE(peak, 100.0); // a spike survives the merge (max, not average)
    }

    void longRunsDrawInBoundedPoints()
    {
        RunSession session;
        RunDashboard dashboard(&session);
        dashboard.resize(1200, 800);
        dashboard.show();
        QElapsedTimer timer;
        timer.start();
        qint64 slowest = 0;
        for (quint32 s = 1; s <= 2 * 3600; s += 1) { // two hours: past 600 points many times over
            RunSecond sec;
            sec.second = s;
            sec.total.requests = 1000 + s % 7;
            sec.total.sent = sec.total.requests;
            sec.total.p50 = 2;
            sec.total.p99 = 9;
            sec.total.max = 20;
            const qint64 before = timer.nsecsElapsed();
            Q_EMIT session.secondAvailable(sec);
            if (s % 600 == 0)
                QCoreApplication::processEvents();
            slowest = std::max(slowest, timer.nsecsElapsed() - before);
        }
        QVERIFY(dashboard.pointCount() <= RunDashboard::kMaxPoints);
        qInfo("7,200 seconds fed in %lld ms, the slowest second took %.2f ms", timer.elapsed(), double(slowest) / 1e6);
        QVERIFY(slowest < 50 * 1000 * 1000); // a stall under 50 ms even late in the run
        auto* table = dashboard.findChild<QTableWidget*>();
        QCOMPARE(table->item(table->rowCount() - 1, 1)->text(), QString::number(1000 + (2 * 3600) % 7));
    }
};

QTEST_MAIN(TestRunDashboard)
#include "tst_rundashboard.moc"
