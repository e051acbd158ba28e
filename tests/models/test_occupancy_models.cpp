#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "models/level_capacity_model.h"
#include "models/occupancy_history_model.h"
#include "session/cluster_snapshot.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <optional>

using namespace topodeck;

namespace {

// A demo cluster loaded the way a source holds it, so tests can apply further events.
struct Source : testing::LoadedDemo {
    explicit Source(const char* name) : LoadedDemo(testing::loadDemo(name)) {}
    void step(DemoSimulator& simulator) {
        for (ClusterEvent& event : simulator.step(state)) index.apply(state, state.apply(std::move(event)));
    }
    ClusterSnapshotPtr snapshot(std::uint64_t epoch = 1) const { return makeClusterSnapshot(state, index, {}, {}, epoch); }
};

qint64 cell(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data(Qt::UserRole).toLongLong();
}

} // namespace

class TestOccupancyModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void historyRowsFollowThePoints() {
        Source source("gb200");
        DemoSimulator simulator(source.demo, 7);
        OccupancyHistoryOptions options;
        options.capacity = 6;
        options.intervalMs = 1000;
        OccupancyHistoryModel model(nullptr, options);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(OccupancyHistoryModel::ColumnCount));

        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        std::vector<qint64> used;
        for (int i = 0; i < 10; ++i) {
            source.step(simulator);
            used.push_back(source.index.root().totals.gpusUsed);
            model.addSnapshot(source.snapshot(), 1'000'000 + i * 1000);
            // A second look within the same second updates the point in place.
            model.addSnapshot(source.snapshot(), 1'000'000 + i * 1000 + 500);
        }
        QCOMPARE(inserted.count(), 10);
        QCOMPARE(removed.count(), 4);
        QVERIFY(changed.count() >= 10);
        QCOMPARE(model.rowCount(), 6);
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(cell(model, row, OccupancyHistoryModel::TimeColumn), 1'000'000 + (row + 4) * 1000 + 500);
            QCOMPARE(cell(model, row, OccupancyHistoryModel::ClusterUsedColumn), used[std::size_t(row + 4)]);
            QCOMPARE(cell(model, row, OccupancyHistoryModel::ClusterTotalColumn), source.index.root().totals.gpusTotal);
            QVERIFY(!model.index(row, OccupancyHistoryModel::SelectedUsedColumn).data().isValid());
        }
        QVERIFY(!model.index(0, OccupancyHistoryModel::TimeColumn).data().toString().isEmpty());
    }

    void selectedDomainColumns() {
        Source source("gb200");
        OccupancyHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addSnapshot(source.snapshot(), 0);
        // A rack: below the two levels kept anyway.
        const DomainId su = source.index.root().children.front();
        const DomainId rack = source.index.domain(su).children.front();
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        model.setSelectedDomain(rack);
        QCOMPARE(headers.count(), 1);
        QCOMPARE(model.selectedPath(), QString::fromStdString(source.index.pathName(rack)));
        QVERIFY(model.headerData(OccupancyHistoryModel::SelectedUsedColumn, Qt::Horizontal).toString().contains(model.selectedPath()));
        QCOMPARE(cell(model, 0, OccupancyHistoryModel::SelectedTotalColumn), source.index.domain(rack).totals.gpusTotal);
        QCOMPARE(cell(model, 0, OccupancyHistoryModel::SelectedUsedColumn), source.index.domain(rack).totals.gpusUsed);
        model.setSelectedDomain(kRootDomain);
        QVERIFY(model.selectedPath().isEmpty());
        QVERIFY(!model.selectedSeries());
        QVERIFY(!model.index(0, OccupancyHistoryModel::SelectedUsedColumn).data().isValid());
    }

    void anotherClusterStartsAgain() {
        Source source("h100");
        OccupancyHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addSnapshot(source.snapshot(1), 0);
        model.addSnapshot(source.snapshot(1), 10'000);
        QCOMPARE(model.rowCount(), 2);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        Source other("gb200");
        model.addSnapshot(other.snapshot(2), 20'000);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(model, 0, OccupancyHistoryModel::ClusterTotalColumn), other.index.root().totals.gpusTotal);
    }

    void levelCapacityRows() {
        Source source("gb200");
        DemoSimulator simulator(source.demo, 3);
        LevelCapacityModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(source.snapshot());
        const std::vector<LevelCapacity> expected = levelCapacity(source.index);
        QCOMPARE(model.rowCount(), int(expected.size()));
        QCOMPARE(model.columnCount(), LevelCapacityModel::FirstGangColumn + 5);
        QCOMPARE(model.headerData(LevelCapacityModel::FirstGangColumn + 4, Qt::Horizontal).toString(),
                 QStringLiteral("Gangs of 128 GPUs"));
        // gb200: the levels, then NVLink domains, then nodes.
        QCOMPARE(model.index(model.rowCount() - 2, LevelCapacityModel::LevelColumn).data().toString(),
                 QStringLiteral("NVLink domain"));
        QCOMPARE(model.index(model.rowCount() - 1, LevelCapacityModel::LevelColumn).data().toString(), QStringLiteral("node"));
        for (int row = 0; row < model.rowCount(); ++row) {
            const LevelCapacity& level = expected[std::size_t(row)];
            QCOMPARE(cell(model, row, LevelCapacityModel::FreeWholeColumn), level.gpusFreeWhole);
            QCOMPARE(cell(model, row, LevelCapacityModel::FreeScatteredColumn), level.gpusFreeScattered());
            for (std::size_t s = 0; s < 5; ++s)
                QCOMPARE(cell(model, row, LevelCapacityModel::FirstGangColumn + int(s)), level.gangs[s]);
        }
        // Live updates of the same levels are data changes, not resets.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        source.step(simulator);
        model.setSnapshot(source.snapshot());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestOccupancyModels)
#include "test_occupancy_models.moc"
