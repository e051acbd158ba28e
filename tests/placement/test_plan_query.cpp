// A dry-run as a string of topodeckctl plan's flags (what the GUI's --plan and its planner send):
// the words, the query they give, its errors, and the outcome on a demo.
#include "core/demo/demo_cluster.h"
#include "core/placement/reports/plan_query.h"
#include "core/text/command_args.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;

class TestPlanQuery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wordsSplitAsAShellDoes_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("plain") << QStringLiteral("--pods 16 -r nvidia.com/gpu=4")
                               << QStringList{QStringLiteral("--pods"), QStringLiteral("16"), QStringLiteral("-r"),
                                              QStringLiteral("nvidia.com/gpu=4")};
        QTest::newRow("double quotes") << QStringLiteral("--sbatch \"-N 4 --gres=gpu:8\"")
                                       << QStringList{QStringLiteral("--sbatch"), QStringLiteral("-N 4 --gres=gpu:8")};
        QTest::newRow("single quotes") << QStringLiteral("--sbatch '-N 2' x")
                                       << QStringList{QStringLiteral("--sbatch"), QStringLiteral("-N 2"),
                                                      QStringLiteral("x")};
        QTest::newRow("backslash") << QStringLiteral("a\\ b") << QStringList{QStringLiteral("a b")};
        QTest::newRow("continued lines") << QStringLiteral("--pods 2 \\\n --compare\n--engine kai")
                                         << QStringList{QStringLiteral("--pods"), QStringLiteral("2"),
                                                        QStringLiteral("--compare"), QStringLiteral("--engine"),
                                                        QStringLiteral("kai")};
        QTest::newRow("empty") << QString() << QStringList{};
    }
    void wordsSplitAsAShellDoes() {
        QFETCH(QString, line);
        QFETCH(QStringList, words);
        auto split = splitCommandWords(line.toStdString());
        QVERIFY2(split.ok(), split ? "" : split.error().message.c_str());
        QStringList got;
        for (const std::string& word : *split) got << QString::fromStdString(word);
        QCOMPARE(got, words);
        // Joined back, the shell reads the same words.
        auto again = splitCommandWords(joinCommandWords(*split));
        QVERIFY(again.ok());
        QCOMPARE(*again, *split);
    }

    void quotedWordsSurviveJoining() {
        const std::vector<std::string> words = {"--sbatch", "-N 4 --comment='it''s'", "", "a\"b", "$HOME"};
        auto split = splitCommandWords(joinCommandWords(words));
        QVERIFY(split.ok());
        QCOMPARE(*split, words);
    }

    // The planner form edits one flag of the line at a time; every other word stays as written.
    void oneFlagIsEditedInPlace_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QString>("edited");
        QTest::newRow("replace in place")
            << QStringLiteral("--pods 16 -r nvidia.com/gpu=4") << QStringLiteral("pods")
            << QStringList{QStringLiteral("32")} << QStringLiteral("--pods 32 -r nvidia.com/gpu=4");
        QTest::newRow("short and = spellings")
            << QStringLiteral("-n8 --request=cpu=1 --pods=4") << QStringLiteral("pods")
            << QStringList{QStringLiteral("2")} << QStringLiteral("--pods 2 --request=cpu=1");
        QTest::newRow("append") << QStringLiteral("--pods 2") << QStringLiteral("required")
                                << QStringList{QStringLiteral("rack")} << QStringLiteral("--pods 2 --required rack");
        QTest::newRow("remove") << QStringLiteral("--compare --pods 2") << QStringLiteral("compare") << QStringList{}
                                << QStringLiteral("--pods 2");
        QTest::newRow("switch") << QStringLiteral("--pods 2") << QStringLiteral("compare") << QStringList{QString()}
                                << QStringLiteral("--pods 2 --compare");
        QTest::newRow("unknown flags and quotes stay")
            << QStringLiteral("--future x --sbatch \"-N 4 --gres=gpu:8\"") << QStringLiteral("engine")
            << QStringList{QStringLiteral("slurm-tree")}
            << QStringLiteral("--future x --sbatch \"-N 4 --gres=gpu:8\" --engine slurm-tree");
        QTest::newRow("a value that needs quotes")
            << QStringLiteral("--pods 2") << QStringLiteral("sbatch") << QStringList{QStringLiteral("-N 2 -G 8")}
            << QStringLiteral("--pods 2 --sbatch '-N 2 -G 8'");
        QTest::newRow("repeated") << QStringLiteral("-e kai --pods 2 -e volcano") << QStringLiteral("engine")
                                  << QStringList{QStringLiteral("kueue-tas")}
                                  << QStringLiteral("--engine kueue-tas --pods 2");
    }
    void oneFlagIsEditedInPlace() {
        QFETCH(QString, line);
        QFETCH(QString, flag);
        QFETCH(QStringList, values);
        QFETCH(QString, edited);
        std::vector<std::string> list;
        for (const QString& value : values) list.push_back(value.toStdString());
        const auto got = withPlanFlag(line.toStdString(), flag.toStdString(), list);
        QVERIFY(got);
        QCOMPARE(QString::fromStdString(*got), edited);
        const auto read = planFlagValues(*got, flag.toStdString());
        QVERIFY(read);
        QCOMPARE(*read, list);
    }

    void flagValuesAreReadAsTheQueryReadsThem() {
        const auto values = planFlagValues("-e kai --pods=3 --engine volcano --unknown 7", "engine");
        QVERIFY(values);
        QCOMPARE(*values, (std::vector<std::string>{"kai", "volcano"}));
        const auto pods = planFlagValues("-n 12", "pods");
        QVERIFY(pods);
        QCOMPARE(*pods, std::vector<std::string>{"12"});
        QVERIFY(!planFlagValues("--sbatch \"-N 2", "pods"));
    }

    void badFlagsSayWhich_data() {
        QTest::addColumn<QString>("flags");
        QTest::addColumn<QString>("message");
        QTest::newRow("unmatched quote") << QStringLiteral("--sbatch \"-N 4") << QStringLiteral("unmatched \"");
        QTest::newRow("unknown flag") << QStringLiteral("--pods 2 --colour red")
                                      << QStringLiteral("unknown flag --colour");
        QTest::newRow("source flag") << QStringLiteral("--demo gb200 --pods 2")
                                     << QStringLiteral("unknown flag --demo");
        QTest::newRow("bad count") << QStringLiteral("--pods x -r nvidia.com/gpu=1")
                                   << QStringLiteral("--pods wants a whole number");
        QTest::newRow("no gang") << QStringLiteral("--compare") << QStringLiteral("say what to place");
        QTest::newRow("two ways") << QStringLiteral("--pods 2 --sbatch \"-N 2\"")
                                  << QStringLiteral("give the gang one way");
        QTest::newRow("unknown engine") << QStringLiteral("--pods 2 -e slurmish")
                                        << QStringLiteral("unknown engine \"slurmish\"");
        QTest::newRow("stray word") << QStringLiteral("--pods 2 extra")
                                    << QStringLiteral("unexpected argument \"extra\"");
    }
    void badFlagsSayWhich() {
        QFETCH(QString, flags);
        QFETCH(QString, message);
        auto query = parsePlanQuery(flags.toStdString());
        QVERIFY(!query.ok());
        QVERIFY2(QString::fromStdString(query.error().message).contains(message), query.error().message.c_str());
    }

    void sbatchTextIsToldFromYaml() {
        QVERIFY(looksLikeSbatchText("#!/bin/bash\n#SBATCH -N 2\nsrun x\n"));
        QVERIFY(looksLikeSbatchText("\n# a comment\nsbatch -N 2 --gres=gpu:8\n"));
        QVERIFY(!looksLikeSbatchText("# comment\napiVersion: batch/v1\nkind: Job\n"));
        QVERIFY(!looksLikeSbatchText(""));
    }

    // The outcome of the same flags on the same cluster is the same however often it is asked, and
    // a pasted sbatch line gets the Slurm engine the CLI would pick.
    void runsOnADemo() {
        const testing::LoadedDemo demo = testing::loadDemo("gb200");
        const ClusterState& state = demo.state;

        auto query = parsePlanQuery("--pods 16 --request nvidia.com/gpu=4 --required rack --compare");
        QVERIFY(query.ok());
        auto inputs = preparePlan(state, demo.demo.topology, {}, *query);
        QVERIFY(inputs.ok());
        auto outcome = runPlanQuery(**inputs, *query);
        QVERIFY2(outcome.ok(), outcome ? "" : outcome.error().message.c_str());
        QCOMPARE(outcome->results.size() + outcome->skipped.size(), placementEngines().size());
        QVERIFY(outcome->allFeasible());
        auto again = runPlanQuery(**inputs, *query);
        QVERIFY(again.ok());
        QCOMPARE(again->results, outcome->results);

        PlanQuery pasted;
        pasted.manifestText = "sbatch -N 16 --gres=gpu:4\n";
        auto slurm = runPlanQuery(**inputs, pasted);
        QVERIFY2(slurm.ok(), slurm ? "" : slurm.error().message.c_str());
        QCOMPARE(slurm->results.size(), std::size_t(1));
        QVERIFY(slurm->results.front().engine.starts_with("slurm-"));

        // 100 racks' worth of pods fits nowhere; the scheduler says why.
        auto tooBig = parsePlanQuery("--pods 2000 --request nvidia.com/gpu=4 --required rack");
        QVERIFY(tooBig.ok());
        auto refused = runPlanQuery(**inputs, *tooBig);
        QVERIFY(refused.ok());
        QVERIFY(!refused->allFeasible());
        QVERIFY(!refused->results.front().message.empty());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestPlanQuery)
#include "test_plan_query.moc"
