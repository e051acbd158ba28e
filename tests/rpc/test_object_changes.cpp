// The wire's object changes (rpc/object_change.h): every kind of event a source makes, encoded as
// the daemon sends it and decoded as a console reads it, builds the same state; a change that is
// not what it claims is refused whole.

#include "core/demo/demo_cluster.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/slurm/slurm_topology.h"
#include "rpc/object_change.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QtTest>

using namespace topodeck;
using namespace topodeck::rpc;

namespace {

// The events a source would send for the file's objects.
std::vector<ClusterEvent> fileEvents(const std::string& path) {
    Result<Snapshot> snapshot = readSnapshotFile(std::string(TOPODECK_TEST_DATA_DIR) + "/" + path);
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    return snapshot->takeEvents();
}

std::vector<ObjectChangePtr> encodeAll(const std::vector<ClusterEvent>& events) {
    std::vector<ObjectChangePtr> changes;
    for (const ClusterEvent& event : events) changes.push_back(std::make_shared<const ObjectChange>(encodeEvent(event)));
    return changes;
}

ClusterState stateOf(std::vector<ClusterEvent> events) {
    ClusterState state;
    for (ClusterEvent& event : events) (void)state.apply(std::move(event));
    return state;
}

} // namespace

class TestObjectChanges : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKindTravelsUnchanged_data() {
        QTest::addColumn<QString>("source");
        // Demos: nodes and pods (device plugin and DRA: slices, claims, templates, classes,
        // ComputeDomains); files: Kueue and KAI Topologies, ResourceFlavors, HyperNodes.
        for (const char* demo : {"gb200", "gb200-dra", "h100"}) QTest::newRow(demo) << QString::fromUtf8(demo);
        for (const char* file : {"reader-cluster.json", "volcano/hypernodes.yaml", "dra/f9-kai-sharing.yaml",
                                 "dra/compute-domains.yaml", "dra/f4-partitionable-split.yaml", "reader-multidoc.yaml",
                                 "plan/cluster.yaml"})
            QTest::newRow(file) << QString::fromUtf8(file);
    }
    void everyKindTravelsUnchanged() {
        QFETCH(QString, source);
        const std::string name = source.toStdString();
        const bool isDemo = name.find('.') == std::string::npos;
        std::vector<ClusterEvent> events = isDemo ? makeDemoCluster(name).value().events : fileEvents(name);
        QVERIFY(!events.empty());
        const std::string expected = writeSnapshotJson(stateOf(events));

        Result<std::vector<ClusterEvent>> decoded = decodeChanges(encodeAll(events));
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QCOMPARE(decoded->size(), events.size());
        QCOMPARE(writeSnapshotJson(stateOf(std::move(*decoded))), expected);
    }

    void deletionsTravelByKey() {
        const std::vector<ClusterEvent> deletions = {
            NodeDeleted{"n1"},
            PodDeleted{"team", "p"},
            TopologyDeleted{"default", "kueue"},
            TopologyDeleted{"default", "kai"},
            HyperNodeDeleted{"s0"},
            ResourceFlavorDeleted{"gpu"},
            ResourceSliceDeleted{"n1-gpu"},
            ResourceClaimDeleted{"team", "c"},
            ResourceClaimTemplateDeleted{"team", "t"},
            DeviceClassDeleted{"gpu.nvidia.com"},
            ComputeDomainDeleted{"team", "cd"},
            SlurmTopologySet{nullptr},
        };
        for (const ClusterEvent& event : deletions) {
            const ObjectChange change = encodeEvent(event);
            QVERIFY(change.deleted);
            QVERIFY(change.object.empty());
            auto decoded = decodeChanges({std::make_shared<const ObjectChange>(change)});
            QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
            QCOMPARE(decoded->size(), std::size_t(1));
            QVERIFY(decoded->front() == event);
        }
    }

    void slurmTopologyTravelsAsTopologyYaml() {
        Result<SlurmTopology> tree = parseTopologyConf("SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[5-8]\n"
                                                       "SwitchName=root Switches=s[0-1]\n");
        QVERIFY(tree);
        const ClusterEvent set = SlurmTopologySet{std::make_shared<const SlurmTopology>(*tree)};
        const ObjectChange change = encodeEvent(set);
        QCOMPARE(change.kind, ObjectKind::SlurmTopology);
        auto decoded = decodeChanges({std::make_shared<const ObjectChange>(change)});
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        const auto* got = std::get_if<SlurmTopologySet>(&decoded->front());
        QVERIFY(got && got->topology);
        QCOMPARE(got->topology->switches.size(), tree->switches.size());
        QVERIFY(*got->topology == *tree);
    }

    void changesThatAreNotWhatTheyClaimAreRefused_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("object");
        QTest::addColumn<QString>("error");
        const int node = static_cast<int>(ObjectKind::Node);
        QTest::newRow("no object") << node << "" << "Node n1: the change carries no object";
        QTest::newRow("not JSON") << node << "{\"kind\":" << "the daemon's changes";
        QTest::newRow("two objects in one") << node
                                            << R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}})"
                                            << "the daemon's changes carry 1 objects, which read as 2";
        QTest::newRow("a list closed early") << node << R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}]})"
                                             << "the daemon's changes";
        QTest::newRow("unknown kind") << 99 << "{}" << "a change of an unknown kind of object";
        QTest::newRow("bad Slurm topology") << static_cast<int>(ObjectKind::SlurmTopology) << "topology: [" << "Slurm topology";
    }
    void changesThatAreNotWhatTheyClaimAreRefused() {
        QFETCH(int, kind);
        QFETCH(QString, object);
        QFETCH(QString, error);
        ObjectChange change;
        change.kind = static_cast<ObjectKind>(kind);
        change.name = "n1";
        change.object = object.toStdString();
        auto good = std::make_shared<const ObjectChange>(encodeEvent(NodeDeleted{"n0"}));
        auto decoded = decodeChanges({good, std::make_shared<const ObjectChange>(change)});
        QVERIFY(!decoded);
        QVERIFY2(decoded.error().message.find(error.toStdString()) != std::string::npos, decoded.error().message.c_str());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestObjectChanges)
#include "test_object_changes.moc"
