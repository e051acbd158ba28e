// sbatch command lines and batch scripts read as Slurm reads them (slurm_opt.c, proc_args.c,
// parse_time.c, sbatch's _opt_batch_script): node counts, GRES, memory units, --switches times,
// segments, hostlists, directive rules and getopt_long behaviour.
#include "core/placement/requests/sbatch_args.h"
#include "support/test_program.h"

#include <QtTest>

#include <cstdint>
#include <string>

using topodeck::GangRequest;
using topodeck::Result;
using topodeck::SlurmRequest;
using namespace std::string_literals;

Q_DECLARE_METATYPE(std::string)

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
    return out;
}

// The request on one line, defaults left out.
QString describe(const GangRequest& g) {
    const SlurmRequest& s = *g.slurm;
    std::string out =
        g.name + " x" + std::to_string(g.pods) + " N" + std::to_string(s.minNodes) + '-' + std::to_string(s.maxNodes);
    if (s.gpusPerNode) out += " gpu" + std::to_string(s.gpusPerNode);
    if (s.cpusPerNode) out += " cpu" + std::to_string(s.cpusPerNode);
    if (s.memoryPerNodeMiB) out += " mem" + std::to_string(s.memoryPerNodeMiB);
    if (s.exclusive) out += " exclusive";
    if (s.switches) {
        out += " switches=" + std::to_string(*s.switches);
        if (s.switchesWaitSeconds == topodeck::kSlurmInfiniteSeconds)
            out += "@inf";
        else if (s.switchesWaitSeconds >= 0)
            out += '@' + std::to_string(s.switchesWaitSeconds);
    }
    if (s.segment) out += " segment=" + std::to_string(s.segment);
    if (s.spreadSegments) out += " spread";
    if (s.consolidateSegments) out += " consolidate";
    if (!s.requiredNodes.empty()) out += " w=" + joined(s.requiredNodes);
    if (!s.excludedNodes.empty()) out += " x=" + joined(s.excludedNodes);
    if (!s.partition.empty()) out += " p=" + s.partition;
    out += " {";
    bool first = true;
    for (const auto& [name, quantity] : g.perPod) {
        out += (first ? "" : ",") + name + '=' + quantity.toString();
        first = false;
    }
    return qs(out + '}');
}

std::string dataFile(const char* name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/gangs/" + name;
}

} // namespace

class TestSbatchArgs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void lines_data();
    void lines();
    void badLines_data();
    void badLines();
    void durations_data();
    void durations();
    void script();
    void scriptWithCommandLine();
    void fileWithSbatchLine();
    void scriptErrors();
};

void TestSbatchArgs::lines_data() {
    QTest::addColumn<std::string>("line");
    QTest::addColumn<std::string>("expected");

    // Forms of the same option.
    QTest::newRow("-N 4 --gres=gpu:8") << "sbatch -N 4 --gres=gpu:8 train.sh"s
                                       << "train.sh x4 N4-4 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("-N4, typed gres, no sbatch word") << "-N4 --gres=gpu:h100:8"s
                                                     << "sbatch x4 N4-4 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("--nodes value as next word") << "--nodes 16 --gpus-per-node=a100:8 --exclusive"s
                                                << "sbatch x16 N16-16 gpu8 exclusive {nvidia.com/gpu=8}"s;
    QTest::newRow("node range") << "--nodes=2-6 --gpus-per-node=4"s
                                << "sbatch x6 N2-6 gpu4 {nvidia.com/gpu=4}"s;
    QTest::newRow("node count with k suffix") << "-N 1k"s
                                              << "sbatch x1024 N1024-1024 {}"s;
    QTest::newRow("getopt abbreviation") << "--gpus-per-n=8 --parti=debug -N 2"s
                                         << "sbatch x2 N2-2 gpu8 p=debug {nvidia.com/gpu=8}"s;
    QTest::newRow("short option cluster") << "-HN4 -k"s
                                          << "sbatch x4 N4-4 {}"s;
    QTest::newRow("line continuation") << "sbatch -N 2 \\\n    --gres=gpu:8 job.sh"s
                                       << "job.sh x2 N2-2 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("quotes") << "sbatch -J \"big job\" --comment='a b # c' -N 1"s
                            << "big job x1 N1-1 {}"s;
    QTest::newRow("-- ends the options") << "sbatch -N 2 -- job.sh -N 9"s
                                         << "job.sh x2 N2-2 {}"s;
    QTest::newRow("script arguments are the script's") << "sbatch -N 2 ./jobs/run.sh -N 99"s
                                                       << "run.sh x2 N2-2 {}"s;
    QTest::newRow("later option wins") << "-N 2 --gres=gpu:4 -N 3 --gpus-per-node=2"s
                                       << "sbatch x3 N3-3 gpu2 {nvidia.com/gpu=2}"s;

    // GPUs.
    QTest::newRow("-G total over -N") << "-N 4 -G 32"s
                                      << "sbatch x4 N4-4 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("-G without -N is one node") << "-G h100:8"s
                                               << "sbatch x1 N1-1 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("gres list with other GRES") << "--gres=nic:1,gpu:8 -N 2"s
                                               << "sbatch x2 N2-2 gpu8 {nvidia.com/gpu=8}"s;
    QTest::newRow("gres gpu alone is one") << "--gres=gpu"s
                                           << "sbatch x1 N1-1 gpu1 {nvidia.com/gpu=1}"s;
    QTest::newRow("tres-per-node") << "--tres-per-node=cpu=4,gres/gpu:4"s
                                   << "sbatch x1 N1-1 gpu4 {nvidia.com/gpu=4}"s;
    QTest::newRow("gpus per task x tasks per node") << "--gpus-per-task=1 --ntasks-per-node=8 -N 2"s
                                                    << "sbatch x2 N2-2 gpu8 cpu8 {cpu=8,nvidia.com/gpu=8}"s;

    // CPUs and memory.
    QTest::newRow("tasks and cpus per task") << "-N 4 -n 32 -c 4"s
                                             << "sbatch x4 N4-4 cpu32 {cpu=32}"s;
    QTest::newRow("nodes from tasks") << "-n 64 --ntasks-per-node=8"s
                                      << "sbatch x8 N8-8 cpu8 {cpu=8}"s;
    QTest::newRow("cpus per gpu") << "--cpus-per-gpu=12 --gres=gpu:8 -N 2"s
                                  << "sbatch x2 N2-2 gpu8 cpu96 {cpu=96,nvidia.com/gpu=8}"s;
    QTest::newRow("--mem G") << "-N 2 --mem=64G"s
                             << "sbatch x2 N2-2 mem65536 {memory=64Gi}"s;
    QTest::newRow("--mem default unit M") << "--mem 1500"s
                                          << "sbatch x1 N1-1 mem1500 {memory=1500Mi}"s;
    QTest::newRow("--mem K rounds up") << "--mem=1025K"s
                                       << "sbatch x1 N1-1 mem2 {memory=2Mi}"s;
    QTest::newRow("--mem TB") << "--mem=1TB"s
                              << "sbatch x1 N1-1 mem1048576 {memory=1Ti}"s;
    QTest::newRow("--mem-per-cpu") << "--mem-per-cpu=4G -c 8"s
                                   << "sbatch x1 N1-1 cpu8 mem32768 {cpu=8,memory=32Gi}"s;
    QTest::newRow("--mem-per-gpu") << "--mem-per-gpu=80G --gpus-per-node=8"s
                                   << "sbatch x1 N1-1 gpu8 mem655360 {memory=640Gi,nvidia.com/gpu=8}"s;

    // Topology.
    QTest::newRow("--switches") << "-N 8 --switches=1"s
                                << "sbatch x8 N8-8 switches=1 {}"s;
    QTest::newRow("--switches@minutes") << "-N 8 --switches=2@10"s
                                        << "sbatch x8 N8-8 switches=2@600 {}"s;
    QTest::newRow("--switches@mm:ss") << "--switches=1@1:30"s
                                      << "sbatch x1 N1-1 switches=1@90 {}"s;
    QTest::newRow("--switches@hh:mm:ss") << "--switches=1@1:00:00"s
                                         << "sbatch x1 N1-1 switches=1@3600 {}"s;
    QTest::newRow("--switches@days-hh:mm:ss") << "--switches=1@2-03:04:05"s
                                              << "sbatch x1 N1-1 switches=1@183845 {}"s;
    QTest::newRow("--switches@INFINITE") << "--switches 3@INFINITE"s
                                         << "sbatch x1 N1-1 switches=3@inf {}"s;
    QTest::newRow("--segment and spread") << "-N 16 --segment=4 --spread-segments"s
                                          << "sbatch x16 N16-16 segment=4 spread {}"s;
    QTest::newRow("--segment value apart, consolidate") << "-N 8 --segment 2 --consolidate-segments"s
                                                        << "sbatch x8 N8-8 segment=2 consolidate {}"s;
    QTest::newRow("-w sets the node count") << "-w gpu-[01-03],gpu-07"s
                                            << "sbatch x4 N4-4 w=gpu-01,gpu-02,gpu-03,gpu-07 {}"s;
    QTest::newRow("-w within a range raises the minimum") << "-N 2-6 --nodelist=n[1-3]"s
                                                          << "sbatch x6 N3-6 w=n1,n2,n3 {}"s;
    // sbatch's "can't run 2 processes on 4 nodes, setting nnodes to 2": the list keeps its first
    // names, as Slurm 22.05.8's --test-only showed (gpu-[001-002]).
    QTest::newRow("-n below the -w list trims it") << "-n 2 -w gpu-[003,001,004,002]"s
                                                   << "sbatch x2 N2-2 cpu1 w=gpu-001,gpu-002 {cpu=1}"s;
    QTest::newRow("-n below -N and the -w list") << "-N 4 -n 2 -w gpu-[001-004]"s
                                                 << "sbatch x2 N2-2 cpu1 w=gpu-001,gpu-002 {cpu=1}"s;
    QTest::newRow("-n below a range's maximum") << "-N 2-6 -n 4 -w n[1-3]"s
                                                << "sbatch x4 N3-4 cpu2 w=n1,n2,n3 {cpu=2}"s;
    QTest::newRow("-x") << "-N 8 -x gpu-[01-02],gpu-05"s
                        << "sbatch x8 N8-8 x=gpu-01,gpu-02,gpu-05 {}"s;

    // Accepted and ignored.
    QTest::newRow("job name, time, test-only, partition")
        << "sbatch -p batch -J my-job -t 2-00:00:00 --test-only -N 2 -A proj --qos=high -o out.%j script.sh"s
        << "my-job x2 N2-2 p=batch {}"s;
    QTest::newRow("--wrap names the job wrap") << "sbatch --wrap 'srun hostname' -N 2"s
                                               << "wrap x2 N2-2 {}"s;
    QTest::newRow("--exclusive=user keeps nodes shared") << "--exclusive=user -N 2"s
                                                         << "sbatch x2 N2-2 {}"s;
    QTest::newRow("--gres=none") << "--gres=gpu:8 --gres=none"s
                                 << "sbatch x1 N1-1 {}"s;
}

void TestSbatchArgs::lines() {
    QFETCH(std::string, line);
    QFETCH(std::string, expected);
    Result<GangRequest> gang = topodeck::parseSbatchLine(line);
    QVERIFY2(gang.ok(), gang.ok() ? "" : gang.error().message.c_str());
    QVERIFY(gang->slurm.has_value());
    QCOMPARE(describe(*gang), qs(expected));
    QCOMPARE(gang->pods, gang->slurm->maxNodes);
    QCOMPARE(qs(gang->source), QStringLiteral("sbatch"));
}

void TestSbatchArgs::badLines_data() {
    QTest::addColumn<std::string>("line");
    QTest::addColumn<std::string>("expected");

    QTest::newRow("unknown long") << "-N 2 --bogus=1"s
                                  << "sbatch: unknown option --bogus"s;
    QTest::newRow("unknown short") << "-Z"s
                                   << "sbatch: unknown option -Z"s;
    QTest::newRow("ambiguous abbreviation") << "--nod=2"s
                                            << "sbatch: option --nod is ambiguous (--nodes, --nodelist, --nodefile)"s;
    QTest::newRow("node count") << "-N x"s
                                << "sbatch: -N: want a node count (N or MIN-MAX), got \"x\""s;
    QTest::newRow("zero nodes") << "--nodes=0"s
                                << "sbatch: --nodes: want a node count (N or MIN-MAX), got \"0\""s;
    QTest::newRow("reversed range") << "-N 4-2"s
                                    << "sbatch: -N: maximum node count 2 is less than minimum node count 4"s;
    QTest::newRow("node count list") << "-N 1,4,8"s
                                     << "node count lists and steps are not supported"s;
    QTest::newRow("uneven -G") << "-N 3 -G 8"s
                               << "sbatch: -G/--gpus: 8 GPUs do not split evenly over 3 nodes"s;
    QTest::newRow("-G over a range") << "-N 2-4 -G 8"s
                                     << "a GPU total over a node range has no per-node count"s;
    QTest::newRow("switches count") << "--switches=x"s
                                    << "sbatch: --switches: want a switch count"s;
    QTest::newRow("switches time") << "--switches=1@1:2:3:4"s
                                   << "sbatch: --switches: want a time as MIN"s;
    QTest::newRow("time") << "-t abc"s
                          << "sbatch: -t: want a time as MIN, MIN:SEC, H:MIN:SEC"s;
    QTest::newRow("memory unit") << "--mem=12Q"s
                                 << "sbatch: --mem: want a size such as 512, 800M, 64G or 1T, got \"12Q\""s;
    QTest::newRow("memory options clash") << "--mem=1G --mem-per-cpu=1G"s
                                          << "--mem, --mem-per-cpu and --mem-per-gpu are mutually exclusive"s;
    QTest::newRow("exclusive value") << "--exclusive=foo"s
                                     << "sbatch: --exclusive: want user, mcs or topo, got \"foo\""s;
    QTest::newRow("flag with a value") << "--hold=yes"s
                                       << "sbatch: --hold: takes no value"s;
    QTest::newRow("missing value") << "--gres=gpu:8 -N"s
                                   << "sbatch: -N: needs a value"s;
    QTest::newRow("help") << "--help"s
                          << "sbatch: --help: prints information instead of submitting a job"s;
    QTest::newRow("unmatched quote") << "-J 'abc"s
                                     << "sbatch: unmatched ' in the command line"s;
    QTest::newRow("node file") << "-w /tmp/hosts"s
                               << "names a node file"s;
    // sbatch itself refuses: "sbatch: error: invalid number of nodes (-N 4-2)" (opt.c _opt_verify).
    QTest::newRow("more nodes listed than -N") << "-N 2 -w n[1-4]"s
                                               << "names 4 nodes (sbatch: error: invalid number of nodes (-N 4-2))"s;
    QTest::newRow("excluded and required") << "-w a,b -x b"s
                                           << "-x/--exclude: excludes b, which -w/--nodelist requires"s;
    QTest::newRow("segment options clash") << "--spread-segments --consolidate-segments"s
                                           << "--spread-segments and --consolidate-segments are mutually exclusive"s;
    QTest::newRow("cpus per gpu with cpus per task")
        << "--cpus-per-gpu=4 -c 2 --gres=gpu:1"s
        << "--cpus-per-gpu: is mutually exclusive with -c/--cpus-per-task"s;
    QTest::newRow("two commands") << "sbatch -N 2 a.sh\nsbatch -N 3 b.sh"s
                                  << "expected one sbatch command, found another command after it"s;
    QTest::newRow("absurd memory") << "--mem-per-cpu=999999T -c 64"s
                                   << "sbatch: asks for more than an exbibyte of memory per node"s;
    QTest::newRow("bad hostlist") << "-w gpu-[1-"s
                                  << "sbatch: -w: "s;
    QTest::newRow("segment of zero") << "--segment=0"s
                                     << "sbatch: --segment: want a whole number of at least 1"s;
}

void TestSbatchArgs::badLines() {
    QFETCH(std::string, line);
    QFETCH(std::string, expected);
    Result<GangRequest> gang = topodeck::parseSbatchLine(line);
    QVERIFY2(!gang.ok(), "expected an error");
    QVERIFY2(gang.error().message.find(expected) != std::string::npos, gang.error().message.c_str());
}

void TestSbatchArgs::durations_data() {
    QTest::addColumn<std::string>("text");
    QTest::addColumn<qint64>("seconds"); // -2: an error

    QTest::newRow("minutes") << "10"s << qint64(600);
    QTest::newRow("minutes:seconds") << "1:30"s << qint64(90);
    QTest::newRow("hours:minutes:seconds") << "2:00:05"s << qint64(7205);
    QTest::newRow("days-hours") << "1-2"s << qint64(93600);
    QTest::newRow("days-hours:minutes") << "1-2:30"s << qint64(95400);
    QTest::newRow("days-hours:minutes:seconds") << "0-0:0:7"s << qint64(7);
    QTest::newRow("unlimited") << "UNLIMITED"s << qint64(topodeck::kSlurmInfiniteSeconds);
    QTest::newRow("infinite any case") << "infinite"s << qint64(topodeck::kSlurmInfiniteSeconds);
    QTest::newRow("-1") << "-1"s << qint64(topodeck::kSlurmInfiniteSeconds);
    QTest::newRow("four fields") << "1:2:3:4"s << qint64(-2);
    QTest::newRow("letters") << "10m"s << qint64(-2);
    QTest::newRow("two dashes") << "1-2-3"s << qint64(-2);
    QTest::newRow("empty") << ""s << qint64(-2);
}

void TestSbatchArgs::durations() {
    QFETCH(std::string, text);
    QFETCH(qint64, seconds);
    Result<std::int64_t> parsed = topodeck::parseSlurmDuration(text);
    if (seconds == -2) {
        QVERIFY(!parsed.ok());
        QVERIFY(parsed.error().message.starts_with("want a time as MIN"));
        return;
    }
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(qint64(*parsed), seconds);
}

void TestSbatchArgs::script() {
    // Directives stop at the first command; blank and indented comment lines do not stop them;
    // a trailing # starts a comment; quotes group words.
    const std::string path = dataFile("train.sbatch");
    Result<GangRequest> gang = topodeck::readSbatchFile(path);
    QVERIFY2(gang.ok(), gang.ok() ? "" : gang.error().message.c_str());
    QCOMPARE(describe(*gang), QStringLiteral("llama train x4 N4-4 gpu8 exclusive switches=1@300 p=gpu "
                                             "{nvidia.com/gpu=8}"));
    QCOMPARE(qs(gang->source), qs(path));
}

void TestSbatchArgs::scriptWithCommandLine() {
    Result<GangRequest> gang = topodeck::readSbatchFile(dataFile("train.sbatch"), "-N 8 --switches=2 -J other");
    QVERIFY2(gang.ok(), gang.ok() ? "" : gang.error().message.c_str());
    QCOMPARE(describe(*gang), QStringLiteral("other x8 N8-8 gpu8 exclusive switches=2 p=gpu {nvidia.com/gpu=8}"));

    // Directives and an sbatch command in the same text: the command's options win.
    Result<GangRequest> both =
        topodeck::parseSbatchScript("#SBATCH -N 4 --gres=gpu:4\nsbatch -N 2 run.sh\necho done\n", "inline");
    QVERIFY2(both.ok(), both.ok() ? "" : both.error().message.c_str());
    QCOMPARE(describe(*both), QStringLiteral("run.sh x2 N2-2 gpu4 {nvidia.com/gpu=4}"));
}

void TestSbatchArgs::fileWithSbatchLine() {
    Result<GangRequest> gang = topodeck::readSbatchFile(dataFile("submit.sh"));
    QVERIFY2(gang.ok(), gang.ok() ? "" : gang.error().message.c_str());
    QCOMPARE(describe(*gang), QStringLiteral("train.sh x16 N16-16 gpu8 segment=4 spread x=gpu-001,gpu-002 "
                                             "{nvidia.com/gpu=8}"));
}

void TestSbatchArgs::scriptErrors() {
    const std::string path = dataFile("bad-directive.sbatch");
    Result<GangRequest> gang = topodeck::readSbatchFile(path);
    QVERIFY(!gang.ok());
    QCOMPARE(qs(gang.error().message), qs(path + ":3: --nodes: want a node count (N or MIN-MAX), got \"two\""));

    Result<GangRequest> positional = topodeck::parseSbatchScript("#!/bin/sh\n#SBATCH -N 2 job.sh\n", "s.sh");
    QVERIFY(!positional.ok());
    QCOMPARE(qs(positional.error().message), QStringLiteral("s.sh:2: unexpected argument \"job.sh\" in a directive"));

    Result<GangRequest> quote = topodeck::parseSbatchScript("#SBATCH -J \"abc\n", "s.sh");
    QVERIFY(!quote.ok());
    QCOMPARE(qs(quote.error().message), QStringLiteral("s.sh:1: unmatched \" in #SBATCH line"));

    Result<GangRequest> override = topodeck::parseSbatchScript("#SBATCH -N 2\n", "s.sh", "--bogus");
    QVERIFY(!override.ok());
    QCOMPARE(qs(override.error().message), QStringLiteral("command line: unknown option --bogus"));

    Result<GangRequest> nothing = topodeck::parseSbatchScript("#!/bin/sh\n\nsrun hostname\n", "plain.sh");
    QVERIFY(!nothing.ok());
    QCOMPARE(qs(nothing.error().message), QStringLiteral("plain.sh: no #SBATCH directive and no sbatch command"));

    // Without directives, the command line alone describes the job.
    Result<GangRequest> flagsOnly = topodeck::parseSbatchScript("#!/bin/sh\nsrun hostname\n", "plain.sh", "-N 3");
    QVERIFY2(flagsOnly.ok(), flagsOnly.ok() ? "" : flagsOnly.error().message.c_str());
    QCOMPARE(describe(*flagsOnly), QStringLiteral("sbatch x3 N3-3 {}"));

    Result<GangRequest> missing = topodeck::readSbatchFile("/nonexistent/job.sbatch");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.starts_with("cannot open /nonexistent/job.sbatch"));
}

TOPODECK_TEST_APPLESS_MAIN(TestSbatchArgs)
#include "test_sbatch_args.moc"
