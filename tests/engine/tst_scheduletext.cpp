// A scenario's schedule as people write it, and as systemd's OnCalendar takes it.
#include "core/schedule.h"

#include <QTest>

using namespace stampede;

class TestScheduleText : public QObject
{
    Q_OBJECT
private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("normal");
        QTest::addColumn<QString>("calendar");
        QTest::addRow("daily") << "daily 02:00"
                               << "daily 02:00"
                               << "*-*-* 02:00:00";
        QTest::addRow("daily, any case") << "  Daily   23:59 "
                                         << "daily 23:59"
                                         << "*-*-* 23:59:00";
        QTest::addRow("weekly") << "weekly mon 03:30"
                                << "weekly mon 03:30"
                                << "Mon *-*-* 03:30:00";
        QTest::addRow("weekly sunday") << "weekly SUN 00:00"
                                       << "weekly sun 00:00"
                                       << "Sun *-*-* 00:00:00";
        QTest::addRow("every 6h") << "every 6h"
                                  << "every 6h"
                                  << "*-*-* 00/6:00:00";
        QTest::addRow("every 6 hours") << "every 6 hours"
                                       << "every 6h"
                                       << "*-*-* 00/6:00:00";
        QTest::addRow("every 30m") << "every 30m"
                                   << "every 30m"
                                   << "*-*-* *:00/30:00";
        QTest::addRow("every 5 minutes") << "every 5 minutes"
                                         << "every 5m"
                                         << "*-*-* *:00/5:00";
    }
    void accepted()
    {
        QFETCH(QString, text);
        QFETCH(QString, normal);
        QFETCH(QString, calendar);
        std::string error;
        const auto s = parseSchedule(text.toStdString(), error);
        QVERIFY2(s, error.c_str());
        QCOMPARE(QString::fromStdString(s->text), normal);
        QCOMPARE(QString::fromStdString(s->onCalendar), calendar);
    }
    void refused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        for (const char* t : {"daily", "daily 24:00", "daily 2:00", "daily 02:60", "weekly mon", "weekly moon 02:00",
                              "hourly", "every", "every h", "cron 0 2 * * *", "daily 02:00 extra"})
            QTest::addRow("%s", t) << t << "is not understood";
        QTest::addRow("0 hours") << "every 0h"
                                 << "every 1 to 24 hours";
        QTest::addRow("-1 hours") << "every -1h"
                                  << "every 1 to 24 hours";
        QTest::addRow("25 hours") << "every 25h"
                                  << "every 1 to 24 hours";
        QTest::addRow("4 minutes") << "every 4m"
                                   << "every 5 to 60 minutes";
    }
    void refused()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!parseSchedule(text.toStdString(), error));
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestScheduleText)
#include "tst_scheduletext.moc"
