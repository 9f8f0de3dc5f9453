// The CPUs a run may use, from fake kernel trees: the affinity, a cgroup v2
// quota (the smallest along the path), a v1 quota, "max", a quota below one
// core, NUMA nodes the affinity touches, and files that are not what they say.
#include "core/cpubudget.h"

#include <QTest>

#include <map>

using namespace stampede;

namespace {

CpuSources tree(std::vector<unsigned> affinity, std::map<std::string, std::string> files)
{
    CpuSources s;
    s.affinity = std::move(affinity);
    s.read = [files = std::move(files)](const std::string& path) -> std::optional<std::string> {
        const auto it = files.find(path);
        return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    return s;
}

const std::string kV2Mount = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n";
const std::string kV1Mounts = "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,relatime,cpu,cpuacct 0 0\n"
                              "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n";

} // namespace

class TestCpuBudget : public QObject
{
    Q_OBJECT
private slots:
    void parsesCpuMax()
    {
        double cores = -1;
        std::string error;
        QVERIFY(parseCpuMax("max 100000\n", cores, error));
        QCOMPARE(cores, 0.0);
        QVERIFY(parseCpuMax("150000 100000", cores, error));
        QCOMPARE(cores, 1.5);
        for (const char* bad : {"", "max", "100000", "0 100000", "-1 100000", "100 0", "1 2 3", "1.5 100000",
                                "99999999999999999999 100000"}) {
            error.clear();
            QVERIFY2(!parseCpuMax(bad, cores, error), bad);
            QVERIFY2(!error.empty(), bad);
        }
    }

    void parsesCpuLists()
    {
        std::vector<unsigned> cpus;
        std::string error;
        QVERIFY(parseCpuList("0-3,8,10-11\n", cpus, error));
        QCOMPARE(cpus, (std::vector<unsigned>{0, 1, 2, 3, 8, 10, 11}));
        QVERIFY(parseCpuList("\n", cpus, error));
        QVERIFY(cpus.empty());
        for (const char* bad : {"3-1", "a", "1,,2", "0-70000", "-", "1-"}) {
            error.clear();
            QVERIFY2(!parseCpuList(bad, cpus, error), bad);
            QVERIFY2(!error.empty(), bad);
        }
    }

    void theAffinityAloneWithoutAQuota()
    {
        const CpuBudget b = cpuBudget(tree({0, 1, 2, 3}, {{"/proc/self/mounts", kV2Mount},
                                                          {"/proc/self/cgroup", "0::/user.slice\n"},
                                                          {"/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n"},
                                                          {"/sys/fs/cgroup/cpu.max", "max 100000\n"}}));
        QCOMPARE(b.cpus, 4u);
        QCOMPARE(b.quota, 0.0);
        QCOMPARE(b.source, std::string("affinity"));
        QCOMPARE(b.nodes, 1u);
    }

    // A container's --cpus 2.5 on its own cgroup, its parent's 6: two whole cores.
    void theSmallestV2QuotaAlongThePath()
    {
        const CpuBudget b =
            cpuBudget(tree({0, 1, 2, 3, 4, 5, 6, 7}, {{"/proc/self/mounts", kV2Mount},
                                                      {"/proc/self/cgroup", "0::/kubepods/pod1/ctr\n"},
                                                      {"/sys/fs/cgroup/kubepods/pod1/ctr/cpu.max", "250000 100000\n"},
                                                      {"/sys/fs/cgroup/kubepods/cpu.max", "600000 100000\n"}}));
        QCOMPARE(b.quota, 2.5);
        QCOMPARE(b.cpus, 2u);
        QCOMPARE(b.source, std::string("cgroup cpu.max 250000 100000"));
    }

    void aV1QuotaAndLessThanACore()
    {
        const CpuBudget b =
            cpuBudget(tree({0, 1}, {{"/proc/self/mounts", kV1Mounts},
                                    {"/proc/self/cgroup", "4:memory:/x\n3:cpu,cpuacct:/docker/abc\n"},
                                    {"/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "50000\n"},
                                    {"/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n"},
                                    {"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n"},
                                    {"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n"}}));
        QCOMPARE(b.quota, 0.5);
        QCOMPARE(b.cpus, 1u); // never none
        QVERIFY(b.source.find("cfs_quota_us") != std::string::npos);
    }

    void aQuotaAboveTheAffinityBoundsNothing()
    {
        const CpuBudget b = cpuBudget(tree({2}, {{"/proc/self/mounts", kV2Mount},
                                                 {"/proc/self/cgroup", "0::/\n"},
                                                 {"/sys/fs/cgroup/cpu.max", "400000 100000\n"}}));
        QCOMPARE(b.cpus, 1u);
        QCOMPARE(b.source, std::string("affinity"));
    }

    // Two nodes; the affinity on both, then on one.
    void numaNodesTheAffinityTouches()
    {
        const std::map<std::string, std::string> nodes{{"/sys/devices/system/node/node0/cpulist", "0-3\n"},
                                                       {"/sys/devices/system/node/node1/cpulist", "4-7\n"}};
        QCOMPARE(cpuBudget(tree({0, 1, 4, 5}, nodes)).nodes, 2u);
        QCOMPARE(cpuBudget(tree({4, 5}, nodes)).nodes, 1u);
        QCOMPARE(cpuBudget(tree({0}, nodes)).nodes, 1u);
        QCOMPARE(cpuBudget(tree({0, 1, 4, 5}, {})).nodes, 1u); // no node files: one
    }

    void damagedFilesBoundNothing()
    {
        const CpuBudget b = cpuBudget(tree({0, 1, 2}, {{"/proc/self/mounts", kV2Mount},
                                                       {"/proc/self/cgroup", "0::/a\n"},
                                                       {"/sys/fs/cgroup/a/cpu.max", "lots 100000\n"},
                                                       {"/sys/fs/cgroup/cpu.max", "\n"}}));
        QCOMPARE(b.cpus, 3u);
        QCOMPARE(b.quota, 0.0);
    }

    // This process's: at least one CPU, at most what its affinity allows.
    void thisProcess()
    {
        const CpuBudget b = cpuBudget();
        QVERIFY(b.cpus >= 1 && b.cpus <= b.affinity);
        QVERIFY(b.nodes >= 1 && b.nodes <= b.cpus);
        qInfo("this process: %u CPUs (%s), affinity %u, quota %.2f, %u NUMA node(s)", b.cpus, b.source.c_str(),
              b.affinity, b.quota, b.nodes);
    }
};

QTEST_GUILESS_MAIN(TestCpuBudget)
#include "tst_cpubudget.moc"
