// Topology presets, detection of the hierarchy from node labels, and the CLI's resolution order.
#include "core/model/cluster_state.h"
#include "core/topology/topology_presets.h"
#include "support/test_program.h"

#include <QtTest>

#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QStringList levelKeys(const TopologySpec& spec) {
    QStringList keys;
    for (const TopologyLevel& level : spec.levels) keys << qs(level.nodeLabel);
    return keys;
}

using Labels = std::initializer_list<std::pair<const char*, std::string>>;

void addNode(ClusterState& state, const std::string& name, Labels labels, int gpus = 8) {
    Node node;
    node.name = name;
    for (const auto& [key, value] : labels) node.setLabel(key, value);
    if (gpus > 0) node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    node.allocatable.set("cpu", Quantity::fromUnits(64));
    state.apply(NodeUpserted{std::move(node)});
}

void addTopology(ClusterState& state, const std::string& name, const std::vector<std::string>& keys,
                 const std::string& origin = "kueue") {
    TopologySpec spec = TopologySpec::fromLabelKeys(keys);
    spec.name = name;
    spec.origin = origin;
    state.apply(TopologyUpserted{std::move(spec)});
}

// n GPU nodes labelled the GKE way; every fourth also carries an NVLink clique when asked.
void addGkeNodes(ClusterState& state, int n, bool cliques = false) {
    for (int i = 0; i < n; ++i) {
        const std::string name = "gke-" + std::to_string(i);
        addNode(state, name,
                {{"cloud.google.com/gce-topology-block", "block-" + std::to_string(i / 8)},
                 {"cloud.google.com/gce-topology-subblock", "sub-" + std::to_string(i / 4)},
                 {"cloud.google.com/gce-topology-host", "host-" + std::to_string(i)},
                 {"topology.kubernetes.io/zone", "us-central1-b"},
                 {"kubernetes.io/hostname", name}});
        if (cliques && i % 4 == 0) {
            Node node = *state.record(*state.findNode(name)).node;
            node.setLabel("nvidia.com/gpu.clique", "uuid." + std::to_string(i / 4));
            state.apply(NodeUpserted{std::move(node)});
        }
    }
}

} // namespace

class TestTopologyPresets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void presetsAreWellFormed();
    void detectsEachPreset_data();
    void detectsEachPreset();
    void dropsLevelsNoNodeCarries();
    void needsHalfOfTheNodes();
    void gpuNodesDecide();
    void specificBeatsGeneric();
    void genericAsFallback();
    void cliqueBecomesNvlinkKey();
    void presetNvlinkKeyNeedsNodes();
    void onlyTopologyObjectWins();
    void bestOfSeveralTopologyObjects();
    void cliqueLevelIsNotAlsoNvlink();
    void emptyClusterDetectsNothing();
    void resolveOrder();
    void resolveErrors();
};

void TestTopologyPresets::presetsAreWellFormed() {
    const auto& presets = topologyPresets();
    QVERIFY(presets.size() >= 6);
    std::set<std::string> names;
    for (const TopologyPreset& preset : presets) {
        QVERIFY2(names.insert(preset.name).second, preset.name.c_str());
        QVERIFY(!preset.description.empty());
        QCOMPARE(qs(preset.spec.name), qs(preset.name));
        QCOMPARE(qs(preset.spec.origin), QStringLiteral("preset"));
        QVERIFY(preset.spec.depth() >= 2);
        std::set<std::string> shortNames;
        for (const TopologyLevel& level : preset.spec.levels) {
            QVERIFY(!level.nodeLabel.empty());
            QVERIFY2(shortNames.insert(level.name).second, level.nodeLabel.c_str());
        }
        QCOMPARE(findTopologyPreset(preset.name), &preset);
    }
    for (const char* name : {"topograph", "topograph-legacy", "gke", "eks", "coreweave", "generic"})
        QVERIFY2(findTopologyPreset(name), name);
    QCOMPARE(qs(presets.back().name), QStringLiteral("generic"));
    QVERIFY(!findTopologyPreset("no-such-preset"));

    const TopologyPreset* topograph = findTopologyPreset("topograph");
    QCOMPARE(qs(topograph->spec.nvlinkLabel), QStringLiteral("accelerator.topograph.run/domain"));
    QCOMPARE(qs(topograph->spec.levels.back().nodeLabel), QStringLiteral("fabric.topograph.run/tier-0"));
    QCOMPARE(levelKeys(findTopologyPreset("eks")->spec).first(),
             QStringLiteral("topology.k8s.aws/network-node-layer-1"));
}

void TestTopologyPresets::detectsEachPreset_data() {
    QTest::addColumn<QString>("preset");
    for (const TopologyPreset& preset : topologyPresets()) QTest::newRow(preset.name.c_str()) << qs(preset.name);
}

void TestTopologyPresets::detectsEachPreset() {
    // Nodes carrying exactly one preset's keys are detected as that preset, all levels kept.
    QFETCH(QString, preset);
    const TopologyPreset* p = findTopologyPreset(preset.toStdString());
    QVERIFY(p);
    ClusterState state;
    for (int i = 0; i < 12; ++i) {
        Node node;
        node.name = "n-" + std::to_string(i);
        for (std::size_t l = 0; l < p->spec.levels.size(); ++l)
            node.setLabel(p->spec.levels[l].nodeLabel,
                          "v" + std::to_string(l) + "-" + std::to_string(i >> (3 - l % 4)));
        node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(8));
        state.apply(NodeUpserted{std::move(node)});
    }
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), preset);
    QCOMPARE(levelKeys(*spec), levelKeys(p->spec));
    QVERIFY(spec->nvlinkLabel.empty()); // no node carries an NVLink key here
}

void TestTopologyPresets::dropsLevelsNoNodeCarries() {
    ClusterState state;
    for (int i = 0; i < 8; ++i)
        addNode(state, "t-" + std::to_string(i),
                {{"fabric.topograph.run/tier-0", "leaf-" + std::to_string(i / 2)},
                 {"fabric.topograph.run/tier-1", "spine-" + std::to_string(i / 4)},
                 {"accelerator.topograph.run/domain", "nvl-" + std::to_string(i / 4)}});
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("topograph"));
    QCOMPARE(levelKeys(*spec), (QStringList{QStringLiteral("fabric.topograph.run/tier-1"),
                                            QStringLiteral("fabric.topograph.run/tier-0")}));
    QCOMPARE(qs(spec->nvlinkLabel), QStringLiteral("accelerator.topograph.run/domain"));
}

void TestTopologyPresets::needsHalfOfTheNodes() {
    ClusterState state;
    for (int i = 0; i < 6; ++i) addNode(state, "bare-" + std::to_string(i), {});
    for (int i = 0; i < 4; ++i)
        addNode(state, "eks-" + std::to_string(i), {{"topology.k8s.aws/network-node-layer-1", "nn-1"}});
    QVERIFY(!detectTopology(state)); // 4 of 10

    addNode(state, "eks-4", {{"topology.k8s.aws/network-node-layer-1", "nn-1"}});
    const std::optional<TopologySpec> spec = detectTopology(state); // 5 of 11: still short
    QVERIFY(!spec);
    addNode(state, "eks-5", {{"topology.k8s.aws/network-node-layer-1", "nn-2"}});
    QVERIFY(detectTopology(state)); // 6 of 12
    QCOMPARE(qs(detectTopology(state)->name), QStringLiteral("eks"));
}

void TestTopologyPresets::gpuNodesDecide() {
    // Twenty unlabelled CPU nodes do not outvote the four GPU nodes that carry the fabric labels.
    ClusterState state;
    for (int i = 0; i < 20; ++i) addNode(state, "cpu-" + std::to_string(i), {}, 0);
    addGkeNodes(state, 4);
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("gke"));
    QCOMPARE(spec->depth(), 3);
}

void TestTopologyPresets::specificBeatsGeneric() {
    // Every node carries the zone, only GPU nodes carry the GKE keys: GKE still wins.
    ClusterState state;
    addGkeNodes(state, 16);
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("gke"));
}

void TestTopologyPresets::genericAsFallback() {
    ClusterState state;
    for (int i = 0; i < 6; ++i)
        addNode(state, "z-" + std::to_string(i), {{"topology.kubernetes.io/zone", i < 3 ? "zone-a" : "zone-b"}});
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("generic"));
    QCOMPARE(levelKeys(*spec), QStringList{QStringLiteral("topology.kubernetes.io/zone")}); // no region
}

void TestTopologyPresets::cliqueBecomesNvlinkKey() {
    ClusterState state;
    addGkeNodes(state, 16, true);
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("gke"));
    QCOMPARE(qs(spec->nvlinkLabel), QStringLiteral("nvidia.com/gpu.clique"));
}

void TestTopologyPresets::presetNvlinkKeyNeedsNodes() {
    // CoreWeave's own NVLink key is absent, the clique is present: the clique is used.
    ClusterState state;
    for (int i = 0; i < 4; ++i)
        addNode(state, "cw-" + std::to_string(i),
                {{"backend.coreweave.cloud/fabric", "fab-1"},
                 {"backend.coreweave.cloud/leafgroup", "lg-" + std::to_string(i / 2)},
                 {"nvidia.com/gpu.clique", "uuid.1"}});
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("coreweave"));
    QCOMPARE(levelKeys(*spec), (QStringList{QStringLiteral("backend.coreweave.cloud/fabric"),
                                            QStringLiteral("backend.coreweave.cloud/leafgroup")}));
    QCOMPARE(qs(spec->nvlinkLabel), QStringLiteral("nvidia.com/gpu.clique"));
}

void TestTopologyPresets::onlyTopologyObjectWins() {
    // The operator's only Topology object is taken as written, even over a preset the nodes fit.
    ClusterState state;
    addGkeNodes(state, 8, true);
    addTopology(state, "racks", {"example.com/rack", "kubernetes.io/hostname"});
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("racks"));
    QCOMPARE(qs(spec->origin), QStringLiteral("kueue"));
    QCOMPARE(levelKeys(*spec),
             (QStringList{QStringLiteral("example.com/rack"), QStringLiteral("kubernetes.io/hostname")}));
    QCOMPARE(qs(spec->nvlinkLabel), QStringLiteral("nvidia.com/gpu.clique"));
}

void TestTopologyPresets::bestOfSeveralTopologyObjects() {
    ClusterState state;
    addGkeNodes(state, 8);
    addTopology(state, "a-unused", {"example.com/rack"});
    addTopology(state, "b-gke", {"cloud.google.com/gce-topology-block", "cloud.google.com/gce-topology-subblock"},
                "kai");
    addTopology(state, "c-zone", {"topology.kubernetes.io/zone"});
    std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    // b-gke and c-zone cover every node; b-gke has more levels carried.
    QCOMPARE(qs(spec->name), QStringLiteral("b-gke"));
    QCOMPARE(qs(spec->origin), QStringLiteral("kai"));

    // No object qualifies: the presets decide.
    ClusterState other;
    addGkeNodes(other, 8);
    addTopology(other, "x", {"example.com/rack"});
    addTopology(other, "y", {"example.com/row"});
    spec = detectTopology(other);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("gke"));
}

void TestTopologyPresets::cliqueLevelIsNotAlsoNvlink() {
    ClusterState state;
    addGkeNodes(state, 8, true);
    addTopology(state, "nvlink", {"nvidia.com/gpu.clique", "kubernetes.io/hostname"}, "kai");
    const std::optional<TopologySpec> spec = detectTopology(state);
    QVERIFY(spec);
    QCOMPARE(qs(spec->name), QStringLiteral("nvlink"));
    QVERIFY(spec->nvlinkLabel.empty());
}

void TestTopologyPresets::emptyClusterDetectsNothing() {
    ClusterState state;
    QVERIFY(!detectTopology(state));
    addNode(state, "plain", {{"kubernetes.io/hostname", "plain"}});
    QVERIFY(!detectTopology(state));
}

void TestTopologyPresets::resolveOrder() {
    ClusterState state;
    addGkeNodes(state, 8, true);
    addTopology(state, "racks", {"example.com/rack"});

    // Explicit levels win over everything.
    Result<TopologySpec> flags = resolveTopology(state, "gke", {"example.com/row", "example.com/rack"});
    QVERIFY(flags.ok());
    QCOMPARE(qs(flags->origin), QStringLiteral("flags"));
    QCOMPARE(levelKeys(*flags), (QStringList{QStringLiteral("example.com/row"), QStringLiteral("example.com/rack")}));
    QCOMPARE(qs(flags->nvlinkLabel), QStringLiteral("nvidia.com/gpu.clique"));

    // A name: a Topology object of the state first, then a preset.
    Result<TopologySpec> object = resolveTopology(state, "racks", {});
    QVERIFY(object.ok());
    QCOMPARE(qs(object->name), QStringLiteral("racks"));
    Result<TopologySpec> preset = resolveTopology(state, "gke", {});
    QVERIFY(preset.ok());
    QCOMPARE(qs(preset->name), QStringLiteral("gke"));
    QCOMPARE(preset->depth(), 3);
    QCOMPARE(qs(preset->nvlinkLabel), QStringLiteral("nvidia.com/gpu.clique"));

    // A preset none of whose keys are on the nodes keeps its levels: the user asked for it.
    Result<TopologySpec> eks = resolveTopology(state, "eks", {});
    QVERIFY(eks.ok());
    QCOMPARE(eks->depth(), 4);

    // Nothing given: detection (the only Topology object here).
    Result<TopologySpec> detected = resolveTopology(state, {}, {});
    QVERIFY(detected.ok());
    QCOMPARE(qs(detected->name), QStringLiteral("racks"));

    // A source with its own hierarchy (a demo): used when nothing is asked, flags still win.
    TopologySpec own = TopologySpec::fromLabelKeys({"example.com/own"});
    own.name = "own";
    Result<TopologySpec> sourceSpec = resolveTopology(state, {}, {}, &own);
    QVERIFY(sourceSpec.ok());
    QCOMPARE(*sourceSpec, own);
    Result<TopologySpec> overridden = resolveTopology(state, "racks", {}, &own);
    QVERIFY(overridden.ok());
    QCOMPARE(qs(overridden->name), QStringLiteral("racks"));
}

void TestTopologyPresets::resolveErrors() {
    ClusterState state;
    addNode(state, "plain", {});
    addTopology(state, "mine", {"example.com/rack"});

    Result<TopologySpec> unknown = resolveTopology(state, "nope", {});
    QVERIFY(!unknown.ok());
    const QString message = qs(unknown.error().message);
    QVERIFY2(message.contains(QStringLiteral("\"nope\"")), qPrintable(message));
    for (const char* name : {"mine", "topograph", "gke", "eks", "generic"})
        QVERIFY2(message.contains(QLatin1String(name)), qPrintable(message));

    // No topology is no error: the cluster is shown without levels, with a notice saying how to
    // choose them (test_hierarchy_sources covers the groupings).
    ClusterState bare;
    addNode(bare, "plain", {});
    Result<TopologySpec> none = resolveTopology(bare, {}, {});
    QVERIFY(none.ok());
    QCOMPARE(qs(none->origin), QStringLiteral("none"));
    QCOMPARE(none->depth(), 0);
    QVERIFY2(qs(none->notice).contains(QStringLiteral("--levels")), none->notice.c_str());

    Result<TopologySpec> twice = resolveTopology(bare, {}, {"a", "b", "a"});
    QVERIFY(!twice.ok());
    QVERIFY2(qs(twice.error().message).contains(QStringLiteral("\"a\"")), twice.error().message.c_str());
    Result<TopologySpec> empty = resolveTopology(bare, {}, {"a", ""});
    QVERIFY(!empty.ok());
}

TOPODECK_TEST_GUILESS_MAIN(TestTopologyPresets)
#include "test_topology_presets.moc"
