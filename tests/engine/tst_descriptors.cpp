// The descriptor table grown before a run (core/descriptors.h): after a
// reservation, opening that many descriptors does not grow it again (a
// growth in a process of several threads stalls the opener 7 to 20 ms).
#include "core/descriptors.h"

#include <QTest>

#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using stampede::descriptorTableSize;
using stampede::reserveDescriptors;

class TestDescriptors : public QObject
{
    Q_OBJECT
private:
    rlimit m_saved{};

    static std::vector<int> open(std::size_t n)
    {
        std::vector<int> fds;
        for (std::size_t i = 0; i < n; ++i) {
            const int fd = ::eventfd(0, EFD_CLOEXEC);
            if (fd < 0)
                break;
            fds.push_back(fd);
        }
        return fds;
    }
    static void close(const std::vector<int>& fds)
    {
        for (const int fd : fds)
            ::close(fd);
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &m_saved), 0);
        rlimit l = m_saved;
        if (l.rlim_max < 16384) { // with CAP_SYS_RESOURCE the hard limit may be raised too
            rlimit raised{16384, 16384};
            if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
                l = raised;
        }
        l.rlim_cur = std::min<rlim_t>(l.rlim_max, 16384);
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &l), 0);
        QVERIFY2(l.rlim_cur >= 8192,
                 "RLIMIT_NOFILE's hard limit is under 8192: raise it (ulimit -Hn) to run this test");
    }
    void cleanupTestCase() { setrlimit(RLIMIT_NOFILE, &m_saved); }

    void aReservedTableDoesNotGrowAsItFills()
    {
        const std::size_t before = descriptorTableSize();
        QVERIFY(before > 0);
        QVERIFY2(before < 3000, "the table is already large: nothing would be tested");
        const std::size_t reserved = reserveDescriptors(3000);
        QVERIFY(reserved >= 3000);
        QCOMPARE(descriptorTableSize(), reserved);
        const std::vector<int> fds = open(3000);
        QCOMPARE(fds.size(), std::size_t(3000));
        QCOMPARE(descriptorTableSize(), reserved); // never grown while they opened
        close(fds);
    }

    // Asked for more than the process may open, the table grows as far as
    // its limit allows (a copy at the number asked would be refused and grow
    // nothing); the descriptors below the limit still open.
    void theLimitCapsTheReservation()
    {
        rlimit l{};
        getrlimit(RLIMIT_NOFILE, &l);
        const rlim_t was = l.rlim_cur;
        const std::size_t table = descriptorTableSize();
        l.rlim_cur = table + table / 2;
        QVERIFY2(l.rlim_cur <= l.rlim_max, "RLIMIT_NOFILE's hard limit is under 1.5 times the table");
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &l), 0);
        const std::size_t grown = reserveDescriptors(1'000'000);
        QVERIFY2(grown >= l.rlim_cur, qPrintable(QString::number(grown)));
        QCOMPARE(descriptorTableSize(), grown);
        const std::vector<int> fds = open(100);
        QCOMPARE(fds.size(), std::size_t(100));
        close(fds);
        l.rlim_cur = was;
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &l), 0);
    }
};

QTEST_APPLESS_MAIN(TestDescriptors)
#include "tst_descriptors.moc"
