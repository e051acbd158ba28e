// NVIDIA ComputeDomains (resource.nvidia.com/v1beta1): the reader on every class of input (a
// kubectl List in YAML and JSON, a single object, the API server's ComputeDomainList, no spec, no
// status, a node without fabric, fields it does not know) and on broken input (each error names
// the object and the field); the state's events; the snapshot writer's round trip; and what
// computeDomainUsage says each ComputeDomain is used by and which NVLink cliques it occupies.
//
// Data: tests/data/dra/compute-domains.{yaml,json} (its comments name its sources), f8 (dra.md
// section 11 fixture 8), apiserver-computedomainlist.json (NVIDIA's demo and install-doc
// ComputeDomains as a 1.33 API server lists them).
#include "core/formats/kube_response_reader.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "core/topology/compute_domain_usage.h"
#include "core/topology/topology_index.h"
#include "support/dra_test_data.h"
#include "support/test_program.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace topodeck;
using topodeck::testing::draDataPath;
using topodeck::testing::readDraData;

namespace {

constexpr const char* kCliqueA = "a1b2c3d4-e5f6-7890-abcd-ef1234567890.0";
constexpr const char* kCliqueB = "5f0c9e7a-2d41-4b8a-9c3e-7e6d5b4a3f21.0";

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

Snapshot readTextOrFail(std::string_view text) {
    Result<Snapshot> result = readSnapshotText(text);
    if (!result) qFatal("%s", result.error().message.c_str());
    return std::move(result).value();
}

const ComputeDomain* findDomain(const std::vector<ComputeDomain>& domains, std::string_view key) {
    for (const ComputeDomain& domain : domains)
        if (domain.key() == key) return &domain;
    return nullptr;
}

const ComputeDomainUsage* findUsage(const std::vector<ComputeDomainUsage>& usages, std::string_view key) {
    for (const ComputeDomainUsage& usage : usages)
        if (usage.qualifiedName() == key) return &usage;
    return nullptr;
}

ClusterState stateOf(Snapshot snapshot) {
    ClusterState state;
    std::move(snapshot).applyTo(state);
    return state;
}

QStringList memberNames(const ComputeDomainUsage& usage) {
    QStringList names;
    for (const ComputeDomainMember& member : usage.members) names << qs(member.node);
    return names;
}

void row(const char* name, const std::string& text, const char* expected) {
    QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(expected);
}

// A ComputeDomain team-a/cd in YAML with `spec` and `status` (flow maps).
std::string domain(const std::string& spec, const std::string& status = "") {
    return "apiVersion: resource.nvidia.com/v1beta1\nkind: ComputeDomain\nmetadata: {name: cd, namespace: team-a}\n"
           "spec: " +
           spec + "\n" + (status.empty() ? "" : "status: " + status + "\n");
}

const std::string kSpec = "{numNodes: 2, channel: {resourceClaimTemplate: {name: cd-channel}}}";

} // namespace

class TestComputeDomains : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void yamlAndJsonAgree();
    void readsEveryField();
    void readsFixture8();
    void singleObjectAndDefaults();
    void apiServerList();
    void otherVersionsAreSkipped();
    void badInput_data();
    void badInput();
    void stateKeepsThem();
    void writerRoundTrip();
    void usageOfTheFixture();
    void usageCountsOnlyItsPods();
    void usageWithoutAnyComputeDomain();
};

void TestComputeDomains::yamlAndJsonAgree() {
    const Snapshot yaml = readDraData("compute-domains.yaml");
    const Snapshot json = readDraData("compute-domains.json");
    QCOMPARE(yaml.computeDomains.size(), std::size_t(4));
    QVERIFY(yaml.computeDomains == json.computeDomains);
    QVERIFY(yaml.pods == json.pods);
    QVERIFY(yaml.warnings.empty() && json.warnings.empty());
}

void TestComputeDomains::readsEveryField() {
    const Snapshot snapshot = readDraData("compute-domains.yaml");
    const ComputeDomain* llm = findDomain(snapshot.computeDomains, "team-a/llm-cd");
    QVERIFY(llm);
    QCOMPARE(qs(llm->uid), QStringLiteral("0b7c6f3e-8a51-4d2e-b9c4-6e1f2a3b4c5d"));
    QCOMPARE(llm->numNodes, 0);
    QCOMPARE(qs(llm->channelTemplate), QStringLiteral("llm-cd-channel"));
    QVERIFY(llm->allocationMode == ComputeDomain::ChannelAllocation::Single); // the default when absent
    QVERIFY(llm->status == ComputeDomainReadiness::NotReady);
    QCOMPARE(llm->nodes.size(), std::size_t(3));
    QVERIFY((llm->nodes[2] == ComputeDomainNode{"gb-b1", "10.0.2.11", kCliqueB, 0, ComputeDomainReadiness::NotReady}));

    // A node without NVLink fabric, as the controller lists it.
    const ComputeDomain* sim = findDomain(snapshot.computeDomains, "team-b/sim-cd");
    QVERIFY(sim);
    QVERIFY((sim->nodes[1] == ComputeDomainNode{"h100-1", "10.0.3.21", "", -1, ComputeDomainReadiness::Ready}));

    // Just created: no status at all.
    const ComputeDomain* pending = findDomain(snapshot.computeDomains, "team-c/pending-cd");
    QVERIFY(pending);
    QCOMPARE(pending->numNodes, 2);
    QVERIFY(pending->allocationMode == ComputeDomain::ChannelAllocation::All);
    QVERIFY(pending->status == ComputeDomainReadiness::None);
    QVERIFY(pending->nodes.empty());

    // The pods name the channel template, as NVIDIA's workloads do.
    const auto pod = std::find_if(snapshot.pods.begin(), snapshot.pods.end(),
                                  [](const Pod& p) { return p.name == "llm-workers-0-3"; });
    QVERIFY(pod != snapshot.pods.end());
    QVERIFY((pod->resourceClaims == std::vector<PodResourceClaim>{{"compute-domain-channel", "", "llm-cd-channel"}}));
}

// dra.md section 11, fixture 8: read now, where it used to be skipped.
void TestComputeDomains::readsFixture8() {
    for (const char* file : {"f8-compute-domain.yaml", "f8-compute-domain.json"}) {
        const Snapshot snapshot = readDraData(file);
        QVERIFY2(snapshot.warnings.empty(), file);
        QCOMPARE(snapshot.computeDomains.size(), std::size_t(1));
        const ComputeDomain& cd = snapshot.computeDomains[0];
        QCOMPARE(qs(cd.key()), QStringLiteral("team-h/cd"));
        QCOMPARE(cd.numNodes, 4);
        QCOMPARE(qs(cd.channelTemplate), QStringLiteral("cd-chan"));
        QVERIFY(cd.status == ComputeDomainReadiness::NotReady);
        QCOMPARE(cd.nodes.size(), std::size_t(3));
        QCOMPARE(qs(cd.nodes[2].cliqueID), QStringLiteral("U.1"));
        QCOMPARE(cd.nodes[1].index, 1);
    }
    // Two NVLink islands: U.0 (n1, n2) and U.1 (n3).
    const ClusterState state = stateOf(readDraData("f8-compute-domain.yaml"));
    const std::vector<ComputeDomainUsage> usage = computeDomainUsage(state, nullptr);
    QCOMPARE(usage.size(), std::size_t(1));
    QCOMPARE(usage[0].cliques, (std::vector<std::string>{"U.0", "U.1"}));
    QVERIFY(usage[0].spansCliques());
}

// A document that is one ComputeDomain, in JSON; the namespace left out; no spec; a status
// without nodes; fields topodeck does not know.
void TestComputeDomains::singleObjectAndDefaults() {
    const Snapshot alone = readTextOrFail(R"({"apiVersion": "resource.nvidia.com/v1beta1", "kind": "ComputeDomain",
        "metadata": {"name": "solo", "labels": {"team": "x"}, "annotations": {"note": "y"}},
        "spec": {"channel": {"resourceClaimTemplate": {"name": "solo-channel", "future": 1}, "allocationMode": "All"},
                 "futureField": {"a": [1, 2]}},
        "status": {"status": "Ready", "conditions": [{"type": "Ready"}], "nodes": null}})");
    QCOMPARE(alone.computeDomains.size(), std::size_t(1));
    const ComputeDomain& solo = alone.computeDomains[0];
    QCOMPARE(qs(solo.key()), QStringLiteral("default/solo"));
    QVERIFY(solo.allocationMode == ComputeDomain::ChannelAllocation::All);
    QVERIFY(solo.status == ComputeDomainReadiness::Ready);
    QVERIFY(solo.nodes.empty());

    // The API server takes a ComputeDomain without spec (the CRD requires channel only in a spec).
    const Snapshot bare = readTextOrFail("apiVersion: resource.nvidia.com/v1beta1\nkind: ComputeDomain\n"
                                         "metadata: {name: bare, namespace: ns}\n");
    QCOMPARE(bare.computeDomains.size(), std::size_t(1));
    QVERIFY(bare.computeDomains[0].channelTemplate.empty());
    QVERIFY(bare.computeDomains[0].status == ComputeDomainReadiness::None);

    // A status node without cliqueID or ipAddress is a node in no clique.
    const Snapshot partial = readTextOrFail(domain(kSpec, "{nodes: [{name: n1}]}"));
    QVERIFY((partial.computeDomains[0].nodes ==
             std::vector<ComputeDomainNode>{{"n1", "", "", 0, ComputeDomainReadiness::None}}));
}

// The list the API server answers GET /apis/resource.nvidia.com/v1beta1/computedomains with, and
// a watch event.
void TestComputeDomains::apiServerList() {
    std::string body;
    {
        QFile file(QString::fromStdString(draDataPath("apiserver-computedomainlist.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        body = file.readAll().toStdString();
    }
    KubeResponseReader reader;
    Result<KubeListPage> page = reader.readListPage(body, "computedomains");
    QVERIFY2(page.ok(), page.ok() ? "" : page.error().message.c_str());
    QCOMPARE(page->objects.computeDomains.size(), std::size_t(2));
    QCOMPARE(page->resourceVersions, (std::vector<std::string>{"4417021", "4417388"}));
    QCOMPARE(qs(page->resourceVersion), QStringLiteral("4417390"));
    const ComputeDomain& first = page->objects.computeDomains[0];
    QCOMPARE(qs(first.key()), QStringLiteral("default/nvbandwidth-test-compute-domain-1"));
    QCOMPARE(qs(first.resourceVersion), QStringLiteral("4417021"));
    QCOMPARE(first.nodes.size(), std::size_t(2));

    std::string line =
        R"({"type":"MODIFIED","object":{"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain",)"
        R"("metadata":{"name":"imex-channel-injection","namespace":"default","resourceVersion":"4417402"},)"
        R"("spec":{"channel":{"resourceClaimTemplate":{"name":"imex-channel-0"}}},)"
        R"("status":{"status":"Ready","nodes":[{"name":"gpu-node-001","ipAddress":"192.168.33.4",)"
        R"("cliqueID":"a1b2c3d4-e5f6-7890-abcd-ef1234567890.0","index":0,"status":"Ready"}]}}})";
    Result<KubeWatchEvent> event = reader.readWatchEvent(line, "watch computedomains");
    QVERIFY2(event.ok(), event.ok() ? "" : event.error().message.c_str());
    QCOMPARE(event->object.computeDomains.size(), std::size_t(1));
    QCOMPARE(qs(event->resourceVersion), QStringLiteral("4417402"));
    QVERIFY(event->object.computeDomains[0].status == ComputeDomainReadiness::Ready);
}

// Another version of the group, or another group's ComputeDomain, and NVIDIA's other kinds are
// skipped with a warning that names them.
void TestComputeDomains::otherVersionsAreSkipped() {
    const Snapshot snapshot = readTextOrFail(R"(apiVersion: v1
kind: List
items:
- {apiVersion: resource.nvidia.com/v1, kind: ComputeDomain, metadata: {name: future}}
- {apiVersion: example.com/v1, kind: ComputeDomain, metadata: {name: other}}
- apiVersion: resource.nvidia.com/v1beta1
  kind: ComputeDomainClique
  metadata: {name: uid.A, namespace: nvidia-dra-driver-gpu}
)");
    QVERIFY(snapshot.computeDomains.empty());
    QCOMPARE(snapshot.warnings,
             (std::vector<std::string>{"skipped 1 object of kind ComputeDomain (resource.nvidia.com/v1)",
                                       "skipped 1 object of kind ComputeDomain (example.com/v1)",
                                       "skipped 1 object of kind ComputeDomainClique"}));
}

void TestComputeDomains::badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    row("spec without channel", domain("{numNodes: 2}"), "ComputeDomain team-a/cd: spec.channel is missing");
    row("channel null", domain("{channel: null}"), "ComputeDomain team-a/cd: spec.channel is missing");
    row("channel without template", domain("{channel: {allocationMode: Single}}"),
        "ComputeDomain team-a/cd: spec.channel.resourceClaimTemplate.name is missing");
    row("template without name", domain("{channel: {resourceClaimTemplate: {}}}"),
        "spec.channel.resourceClaimTemplate.name is missing");
    row("template a string", domain("{channel: {resourceClaimTemplate: cd-channel}}"),
        "spec.channel.resourceClaimTemplate: expected a map, got a string");
    row("template name a list", domain("{channel: {resourceClaimTemplate: {name: [a]}}}"),
        "spec.channel.resourceClaimTemplate.name: expected a string, got a list");
    row("allocation mode", domain("{channel: {resourceClaimTemplate: {name: c}, allocationMode: Many}}"),
        R"(ComputeDomain team-a/cd: spec.channel.allocationMode: expected Single or All, got "Many")");
    row("numNodes negative", domain("{numNodes: -1, channel: {resourceClaimTemplate: {name: c}}}"),
        "spec.numNodes: must be 0 or more, got -1");
    row("numNodes a word", domain("{numNodes: two, channel: {resourceClaimTemplate: {name: c}}}"),
        R"(spec.numNodes: expected an integer, got "two")");
    row("spec a list", domain("[channel]"), "ComputeDomain team-a/cd: spec: expected a map, got a list");
    row("status value", domain(kSpec, "{status: Degraded}"),
        R"(ComputeDomain team-a/cd: status.status: expected Ready or NotReady, got "Degraded")");
    row("status a string", domain(kSpec, "Ready"), "status: expected a map, got a string");
    row("nodes a map", domain(kSpec, "{nodes: {n1: {}}}"), "status.nodes: expected a list, got a map");
    row("node without name", domain(kSpec, "{nodes: [{name: n1}, {cliqueID: U.0}]}"),
        "ComputeDomain team-a/cd: status.nodes[1].name is missing");
    row("node twice", domain(kSpec, "{nodes: [{name: n1, cliqueID: U.0}, {name: n1, cliqueID: U.1}]}"),
        R"(status.nodes[1].name: node "n1" is listed twice)");
    row("node not a map", domain(kSpec, "{nodes: [n1]}"), "status.nodes[0]: expected a map, got a string");
    row("node index", domain(kSpec, "{nodes: [{name: n1, index: first}]}"),
        R"(status.nodes[0].index: expected an integer, got "first")");
    row("node status", domain(kSpec, "{nodes: [{name: n1, status: Unknown}]}"),
        R"(status.nodes[0].status: expected Ready or NotReady, got "Unknown")");
    row("clique a map", domain(kSpec, "{nodes: [{name: n1, cliqueID: {id: 0}}]}"),
        "status.nodes[0].cliqueID: expected a string, got a map");
    row("terminal escape in a clique", domain(kSpec, "{nodes: [{name: n1, cliqueID: \"U\\e[2J.0\"}]}"),
        "status.nodes[0].cliqueID: the value holds");
    row("no name",
        "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: resource.nvidia.com/v1beta1, kind: ComputeDomain, "
        "metadata: {namespace: a}, spec: {channel: {resourceClaimTemplate: {name: c}}}}\n",
        "ComputeDomain #0 in items: metadata.name is missing");
    row("broken json",
        R"({"apiVersion": "resource.nvidia.com/v1beta1", "kind": "ComputeDomain", "metadata": {"name": "x"},)"
        R"( "spec": {"numNodes": 1,}})",
        "input");
}

void TestComputeDomains::badInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QByteArray utf8 = text.toUtf8();
    Result<Snapshot> result =
        readSnapshotText(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    QVERIFY2(!result.ok(), "expected an error");
    const QString message = qs(result.error().message);
    QVERIFY2(message.startsWith(QStringLiteral("input")), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message + QStringLiteral("\n  does not contain\n") + expected));
}

// Upserts replace, deletes remove, every event moves the generation and touches no node.
void TestComputeDomains::stateKeepsThem() {
    ClusterState state;
    ComputeDomain cd;
    cd.nameSpace = "ns";
    cd.name = "cd";
    cd.channelTemplate = "cd-channel";
    std::uint64_t generation = state.generation();
    AppliedEvent applied = state.apply(ComputeDomainUpserted{cd});
    QCOMPARE(applied.nodeCount, 0);
    QVERIFY(!applied.allNodes);
    QVERIFY(state.generation() > generation);
    QCOMPARE(state.computeDomains().size(), std::size_t(1));

    cd.status = ComputeDomainReadiness::Ready;
    cd.nodes.push_back({"n1", "10.0.0.1", "U.0", 0, ComputeDomainReadiness::Ready});
    generation = state.generation();
    (void)state.apply(ComputeDomainUpserted{cd});
    QVERIFY(state.generation() > generation);
    QVERIFY(state.computeDomains().at("ns/cd") == cd);

    (void)state.apply(ComputeDomainDeleted{"other", "cd"}); // not there: nothing happens
    QCOMPARE(state.computeDomains().size(), std::size_t(1));
    (void)state.apply(ComputeDomainDeleted{"ns", "cd"});
    QVERIFY(state.computeDomains().empty());
}

// Written and read back, equal; edges the fixtures do not hold too (no spec, no status, index -1,
// clique "", allocationMode All).
void TestComputeDomains::writerRoundTrip() {
    ClusterState state = stateOf(readDraData("compute-domains.yaml"));
    ComputeDomain edge;
    edge.nameSpace = "edge";
    edge.name = "no-spec";
    edge.resourceVersion = "77";
    (void)state.apply(ComputeDomainUpserted{edge});
    edge.name = "all";
    edge.uid = "uid-1";
    edge.numNodes = 3;
    edge.channelTemplate = "all-channel";
    edge.allocationMode = ComputeDomain::ChannelAllocation::All;
    edge.nodes = {{"x", "", "", -1, ComputeDomainReadiness::None},
                  {"y", "fd00::1", "Q.7", 4, ComputeDomainReadiness::NotReady}};
    (void)state.apply(ComputeDomainUpserted{edge});

    const std::string json = writeSnapshotJson(state);
    QVERIFY(json.find(R"("apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain")") != std::string::npos);
    Result<Snapshot> read = readSnapshotText(json, "written.json");
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QVERIFY(read->warnings.empty());
    const ClusterState copy = stateOf(std::move(*read));
    QVERIFY(copy.computeDomains() == state.computeDomains());
    for (const auto& [key, domain] : state.computeDomains())
        QCOMPARE(copy.computeDomains().at(key).resourceVersion, domain.resourceVersion);
    QVERIFY(writeSnapshotJson(copy) == json);
}

// Which workload uses each ComputeDomain, its nodes (status first, then where its pods run) and
// the cliques they are in, and the index's NVLink domains of them.
void TestComputeDomains::usageOfTheFixture() {
    const ClusterState state = stateOf(readDraData("compute-domains.yaml"));
    TopologySpec spec = TopologySpec::fromLabelKeys({"fabric.topograph.run/tier-0"});
    spec.nvlinkLabel = std::string(kGpuCliqueLabel);
    const TopologyIndex index = TopologyIndex::build(state, spec);
    const std::vector<ComputeDomainUsage> usages = computeDomainUsage(state, &index);
    QCOMPARE(usages.size(), std::size_t(4));

    const ComputeDomainUsage* llm = findUsage(usages, "team-a/llm-cd");
    QVERIFY(llm);
    QCOMPARE(memberNames(*llm), (QStringList{QStringLiteral("gb-a1"), QStringLiteral("gb-a2"), QStringLiteral("gb-b1"),
                                             QStringLiteral("gb-b2")}));
    QVERIFY(llm->members[2].listed && llm->members[2].status == ComputeDomainReadiness::NotReady);
    // Not in the status yet: its clique is its node's label.
    QVERIFY(!llm->members[3].listed);
    QCOMPARE(qs(llm->members[3].clique), QString::fromLatin1(kCliqueB));
    QCOMPARE(llm->members[3].pods, 1);
    QCOMPARE(llm->cliques, (std::vector<std::string>{kCliqueB, kCliqueA}));
    QVERIFY(llm->spansCliques());
    QCOMPARE(llm->nvlinkDomains.size(), std::size_t(2));
    QVERIFY(llm->members[0].nvlinkDomain != kNoNvlinkDomain);
    QCOMPARE(index.nvlinkName(llm->members[0].nvlinkDomain), std::string(kCliqueA));
    QCOMPARE(llm->pods, 4);
    QVERIFY((llm->workloads == std::vector<ComputeDomainWorkload>{{"llm", WorkloadKind::JobSet, 4}}));

    const ComputeDomainUsage* sim = findUsage(usages, "team-b/sim-cd");
    QVERIFY(sim);
    QCOMPARE(sim->cliques, (std::vector<std::string>{kCliqueA}));
    QVERIFY(!sim->spansCliques());
    QCOMPARE(sim->membersWithoutClique(), 1);
    QVERIFY(sim->member("h100-1") && sim->member("h100-1")->nvlinkDomain == kNoNvlinkDomain);
    QCOMPARE(sim->nvlinkDomains.size(), std::size_t(1));

    const ComputeDomainUsage* pending = findUsage(usages, "team-c/pending-cd");
    QVERIFY(pending);
    QVERIFY(pending->members.empty() && pending->cliques.empty() && pending->workloads.empty());
    QCOMPARE(pending->pods, 0);
}

// Pods of another namespace naming a template of the same name, terminated pods and pods of no
// template are not its; a pending pod is its workload's but runs nowhere yet.
void TestComputeDomains::usageCountsOnlyItsPods() {
    ClusterState state;
    ComputeDomain cd;
    cd.nameSpace = "ns";
    cd.name = "cd";
    cd.channelTemplate = "chan";
    (void)state.apply(ComputeDomainUpserted{cd});
    const auto pod = [&](std::string nameSpace, std::string name, std::string node, PodPhase phase,
                         std::string templateName) {
        Pod p;
        p.nameSpace = std::move(nameSpace);
        p.name = std::move(name);
        p.nodeName = std::move(node);
        p.phase = phase;
        p.workload = "job";
        p.workloadKind = WorkloadKind::Job;
        p.resourceClaims = {{"gpu", "", "gpus"}, {"channel", "", std::move(templateName)}};
        (void)state.apply(PodUpserted{std::move(p)});
    };
    pod("ns", "running", "n1", PodPhase::Running, "chan");
    pod("ns", "pending", "", PodPhase::Pending, "chan");
    pod("ns", "done", "n2", PodPhase::Succeeded, "chan");
    pod("other", "elsewhere", "n3", PodPhase::Running, "chan");
    pod("ns", "unrelated", "n4", PodPhase::Running, "another");
    const std::vector<ComputeDomainUsage> usages = computeDomainUsage(state, nullptr);
    QCOMPARE(usages.size(), std::size_t(1));
    QCOMPARE(usages[0].pods, 2);
    QCOMPARE(memberNames(usages[0]), QStringList{QStringLiteral("n1")});
    QVERIFY(usages[0].members[0].clique.empty()); // n1 is known only from its pod: no label
    QVERIFY((usages[0].workloads == std::vector<ComputeDomainWorkload>{{"job", WorkloadKind::Job, 2}}));
}

void TestComputeDomains::usageWithoutAnyComputeDomain() {
    const ClusterState state = stateOf(readDraData("f2-dra-gpu-node.yaml"));
    QVERIFY(computeDomainUsage(state, nullptr).empty());
}

TOPODECK_TEST_GUILESS_MAIN(TestComputeDomains)
#include "test_compute_domains.moc"
