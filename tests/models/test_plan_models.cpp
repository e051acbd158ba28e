// The planner's result and trace models over real dry-runs on the gb200 demo (under
// QAbstractItemModelTester), and the trace's names resolved to paths of the hierarchy shown,
// whichever engine wrote them.
#include "core/demo/demo_cluster.h"
#include "core/placement/reports/plan_query.h"
#include "models/plan_result_model.h"
#include "models/plan_trace_model.h"
#include "models/topology_tree_model.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace topodeck;

class TestPlanModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        testing::LoadedDemo demo = testing::loadDemo("gb200");
        m_topology = demo.demo.topology;
        m_state = std::move(demo.state);
        m_snapshot = makeClusterSnapshot(m_state, demo.index);
        m_tree.setSnapshot(m_snapshot);
    }

    void resultRowsPerEngine() {
        PlanResultModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const PlanAnswerPtr compare = answer(QStringLiteral("--pods 16 -r nvidia.com/gpu=4 --required rack --compare"));
        model.setAnswer(compare);
        const PlanOutcome& outcome = compare->outcome;
        QCOMPARE(model.rowCount(), int(outcome.results.size() + outcome.skipped.size()));
        QCOMPARE(model.columnCount(), int(PlanResultModel::ColumnCount));
        for (int row = 0; row < int(outcome.results.size()); ++row) {
            const PlacementResult& result = outcome.results[std::size_t(row)];
            QCOMPARE(model.index(row, PlanResultModel::EngineColumn).data().toString(),
                     QString::fromStdString(result.engine));
            QCOMPARE(model.index(row, PlanResultModel::VerdictColumn).data().toString(), QStringLiteral("fits"));
            QVERIFY(!model.index(row, PlanResultModel::DomainsColumn).data().toString().isEmpty());
            QVERIFY(
                model.index(row, PlanResultModel::NodesColumn).data().toString().contains(QStringLiteral("16 pods")));
            QCOMPARE(model.index(row, 0).data(PlanResultModel::ResultRole).toInt(), row);
            QCOMPARE(model.index(row, 0).data(PlanResultModel::PodsRole).toLongLong(), 16);
            QCOMPARE(model.result(row), &result);
        }
        // An answer that does not fit, then an error: the verdict, then no rows.
        model.setAnswer(answer(QStringLiteral("--pods 40 -r nvidia.com/gpu=4 --required rack --engine kai")));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, PlanResultModel::VerdictColumn).data().toString(), QStringLiteral("does not fit"));
        QVERIFY(!model.index(0, 0).data(PlanResultModel::FeasibleRole).toBool());
        QVERIFY(model.index(0, PlanResultModel::MessageColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1Char('\n')));
        auto failed = std::make_shared<PlanAnswer>();
        failed->error = "no such flag";
        model.setAnswer(failed);
        QCOMPARE(model.rowCount(), 0);
        model.setAnswer(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // Every trace line that names a domain selects one of the tree, for every engine, whether the
    // gang fits or not.
    void traceLinesSelectTheirDomain_data() {
        QTest::addColumn<QString>("flags");
        for (const char* engine : {"kueue-tas", "volcano", "kai", "slurm-tree", "slurm-block"}) {
            QTest::addRow("%s fits", engine)
                << QStringLiteral("--pods 16 -r nvidia.com/gpu=4 --required rack --engine %1")
                       .arg(QLatin1String(engine));
            QTest::addRow("%s does not fit", engine)
                << QStringLiteral("--pods 40 -r nvidia.com/gpu=4 --required rack --engine %1")
                       .arg(QLatin1String(engine));
            QTest::addRow("%s preferred", engine)
                << QStringLiteral("--pods 64 -r nvidia.com/gpu=4 --preferred rack --engine %1")
                       .arg(QLatin1String(engine));
        }
        QTest::newRow("sbatch") << QStringLiteral("--sbatch \"-N 20 --gres=gpu:4 --switches=1\"");
    }
    void traceLinesSelectTheirDomain() {
        QFETCH(QString, flags);
        const PlanAnswerPtr planned = answer(flags);
        QVERIFY(planned);
        PlanTraceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(planned, 0, m_snapshot);
        const PlacementResult& result = planned->outcome.results.front();
        QCOMPARE(model.rowCount(), int(1 + result.notes.size() + result.trace.size()));
        QCOMPARE(model.index(0, PlanTraceModel::WhyColumn).data().toString(), QString::fromStdString(result.message));
        int named = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString domain = model.index(row, PlanTraceModel::DomainColumn).data().toString();
            const QString path = model.pathAt(row);
            QCOMPARE(model.index(row, 0).data(PlanTraceModel::PathRole).toString(), path);
            if (domain.isEmpty()) {
                QVERIFY(path.isEmpty());
                continue;
            }
            ++named;
            QVERIFY2(!path.isEmpty(), qPrintable(QStringLiteral("%1 names nothing").arg(domain)));
            QVERIFY2(m_tree.indexForPath(path).has_value(), qPrintable(path));
        }
        if (result.feasible) QVERIFY(named > 0); // Volcano's refusals name no HyperNode
        // The chosen domains resolve too: the map and the tree can show where it went.
        const TracePathResolver resolver(m_snapshot);
        for (const ChosenDomain& chosen : result.chosen)
            QVERIFY2(!resolver.pathFor(chosen.level, chosen.domain).isEmpty(), chosen.domain.c_str());

        model.setResult(planned, 5, m_snapshot); // no such engine
        QCOMPARE(model.rowCount(), 0);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void namesResolveAsEachEngineWritesThem_data() {
        QTest::addColumn<QString>("level");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("path");
        QTest::newRow("kueue path") << QStringLiteral("rack") << QStringLiteral("su-1/rack-1-04")
                                    << QStringLiteral("su-1/rack-1-04");
        QTest::newRow("kueue node") << QStringLiteral("hostname") << QStringLiteral("su-1/rack-1-04/gb200-su1-r04-n02")
                                    << QStringLiteral("su-1/rack-1-04/gb200-su1-r04-n02");
        QTest::newRow("kai dotted") << QStringLiteral("rack") << QStringLiteral("su-3.rack-3-05")
                                    << QStringLiteral("su-3/rack-3-05");
        QTest::newRow("volcano value") << QStringLiteral("rack") << QStringLiteral("rack-2-08")
                                       << QStringLiteral("su-2/rack-2-08");
        QTest::newRow("volcano top") << QStringLiteral("") << QStringLiteral("<cluster-top-hypernode>")
                                     << QStringLiteral("/");
        QTest::newRow("slurm root switch")
            << QStringLiteral("switch level 2") << QStringLiteral("root") << QStringLiteral("/");
        QTest::newRow("slurm switch") << QStringLiteral("switch level 1") << QStringLiteral("su-2")
                                      << QStringLiteral("su-2");
        QTest::newRow("slurm dashed path")
            << QStringLiteral("switch level 0") << QStringLiteral("su-2-rack-2-01") << QStringLiteral("su-2/rack-2-01");
        QTest::newRow("slurm aggregated block")
            << QStringLiteral("aggregated block") << QStringLiteral("rack-1-[01-04]") << QStringLiteral("su-1");
        QTest::newRow("blocks across units")
            << QStringLiteral("aggregated block") << QStringLiteral("rack-1-08,rack-2-01") << QStringLiteral("/");
        QTest::newRow("node") << QStringLiteral("") << QStringLiteral("gb200-su4-r07-n18")
                              << QStringLiteral("su-4/rack-4-07/gb200-su4-r07-n18");
        QTest::newRow("nodes of one rack")
            << QStringLiteral("") << QStringLiteral("gb200-su4-r07-n[01-03]") << QStringLiteral("su-4/rack-4-07");
        QTest::newRow("unknown") << QStringLiteral("rack") << QStringLiteral("rack-9-99") << QStringLiteral("");
        QTest::newRow("empty") << QStringLiteral("") << QStringLiteral("") << QStringLiteral("");
    }
    void namesResolveAsEachEngineWritesThem() {
        QFETCH(QString, level);
        QFETCH(QString, name);
        QFETCH(QString, path);
        const TracePathResolver resolver(m_snapshot);
        QCOMPARE(resolver.pathFor(level.toStdString(), name.toStdString()), path);
        QCOMPARE(TracePathResolver().pathFor("rack", "su-1/rack-1-04"), QString());
    }

    void nvlinkDomainsSelectTheDomainHoldingThem() {
        const TopologyIndex& index = m_snapshot->index;
        QVERIFY(index.nvlinkDomainCount() > 0);
        const TracePathResolver resolver(m_snapshot);
        for (std::int32_t nv = 0; nv < std::int32_t(index.nvlinkDomainCount()); ++nv) {
            const QString path = resolver.pathFor("block", index.nvlinkName(nv));
            QVERIFY2(!path.isEmpty(), index.nvlinkName(nv).c_str());
            QVERIFY(m_tree.indexForPath(path).has_value());
        }
    }

private:
    PlanAnswerPtr answer(const QString& flags) {
        auto query = parsePlanQuery(flags.toStdString());
        if (!query) {
            qWarning("%s", query.error().message.c_str());
            return nullptr;
        }
        auto inputs = preparePlan(m_state, m_topology, {}, *query);
        if (!inputs) return nullptr;
        auto outcome = runPlanQuery(**inputs, *query);
        auto planned = std::make_shared<PlanAnswer>();
        planned->generation = m_state.generation();
        if (outcome)
            planned->outcome = std::move(*outcome);
        else
            planned->error = outcome.error().message;
        return planned;
    }

    ClusterState m_state;
    TopologySpec m_topology;
    ClusterSnapshotPtr m_snapshot;
    TopologyTreeModel m_tree;
};

TOPODECK_TEST_MAIN(TestPlanModels)
#include "test_plan_models.moc"
