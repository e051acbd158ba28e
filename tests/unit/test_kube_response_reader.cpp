// KubeResponseReader on responses captured from a real kube-apiserver 1.20 (tests/data/kube/):
// list pages with their continue tokens, watch events of every type, Status objects, and bad input.

#include "core/formats/kube_response_reader.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "support/test_program.h"

#include <QFile>
#include <QTest>

using namespace topodeck;

namespace {

std::string dataFile(const char* name) {
    QFile file(QStringLiteral(TOPODECK_TEST_DATA_DIR "/kube/") + QString::fromLatin1(name));
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read test data %s", name);
    return file.readAll().toStdString();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class TestKubeResponseReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nodeListPage() {
        KubeResponseReader reader;
        std::string body = dataFile("nodelist-page1.json");
        Result<KubeListPage> page = reader.readListPage(body, "GET /api/v1/nodes");
        QVERIFY2(page.ok(), page.ok() ? "" : page.error().message.c_str());
        QCOMPARE(qs(page->resourceVersion), QStringLiteral("209"));
        QVERIFY(!page->continueToken.empty());
        QCOMPARE(page->remainingItemCount, std::int64_t(1));
        QCOMPARE(page->objects.nodes.size(), std::size_t(1));
        QCOMPARE(page->resourceVersions.size(), std::size_t(1));
        QVERIFY(!page->resourceVersions[0].empty());
        // Items of a NodeList carry no kind of their own: the list's kind says what they are.
        const Node& node = page->objects.nodes[0];
        QCOMPARE(qs(node.name), QStringLiteral("gpu-002"));
        QVERIFY(!node.ready);
        QCOMPARE(node.taints.size(), std::size_t(1));
        QCOMPARE(qs(node.allocatable.get("nvidia.com/gpu").toString()), QStringLiteral("8"));
        QCOMPARE(qs(*node.label("example.com/rack")), QStringLiteral("r1"));
    }

    void podListPage() {
        KubeResponseReader reader;
        std::string body = dataFile("podlist.json");
        Result<KubeListPage> page = reader.readListPage(body, "GET /api/v1/pods");
        QVERIFY2(page.ok(), page.ok() ? "" : page.error().message.c_str());
        QVERIFY(page->continueToken.empty()); // the last page
        QCOMPARE(page->remainingItemCount, std::int64_t(-1));
        QCOMPARE(page->objects.pods.size(), std::size_t(2));
        QCOMPARE(page->resourceVersions.size(), std::size_t(2));
        const Pod& p1 = page->objects.pods[0];
        QCOMPARE(qs(p1.nameSpace), QStringLiteral("default"));
        QCOMPARE(qs(p1.nodeName), QStringLiteral("n1"));
        QCOMPARE(p1.phase, PodPhase::Running);
        QCOMPARE(qs(p1.requests.get("nvidia.com/gpu").toString()), QStringLiteral("2"));
        QCOMPARE(page->objects.pods[1].phase, PodPhase::Succeeded);
        QVERIFY(page->resourceVersions[0] != page->resourceVersions[1]);
    }

    void watchEvents() {
        KubeResponseReader reader;
        std::vector<std::string> stream = lines(dataFile("node-watch.jsonl"));
        QVERIFY(stream.size() >= 3);

        Result<KubeWatchEvent> modified = reader.readWatchEvent(stream[0], "watch nodes");
        QVERIFY2(modified.ok(), modified.ok() ? "" : modified.error().message.c_str());
        QCOMPARE(modified->type, KubeWatchEvent::Type::Modified);
        QCOMPARE(modified->object.nodes.size(), std::size_t(1));
        QCOMPARE(qs(*modified->object.nodes[0].label("example.com/rack")), QStringLiteral("r2"));
        QVERIFY(!modified->resourceVersion.empty());

        Result<KubeWatchEvent> deleted = reader.readWatchEvent(stream[1], "watch nodes");
        QVERIFY(deleted.ok());
        QCOMPARE(deleted->type, KubeWatchEvent::Type::Deleted);
        QCOMPARE(qs(deleted->object.nodes.at(0).name), QStringLiteral("n1"));

        // A bookmark names no object, only where to resume.
        Result<KubeWatchEvent> bookmark = reader.readWatchEvent(stream[2], "watch nodes");
        QVERIFY2(bookmark.ok(), bookmark.ok() ? "" : bookmark.error().message.c_str());
        QCOMPARE(bookmark->type, KubeWatchEvent::Type::Bookmark);
        QCOMPARE(qs(bookmark->resourceVersion), QStringLiteral("211"));
        QVERIFY(bookmark->object.nodes.empty());
    }

    void watchErrorEvent() {
        // As the API server sends it for a watch from a compacted resourceVersion.
        std::string line = R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},)"
                           R"("status":"Failure","message":"The resourceVersion for the provided watch is too old.",)"
                           R"("reason":"Expired","code":410}})";
        KubeResponseReader reader;
        Result<KubeWatchEvent> event = reader.readWatchEvent(line, "watch pods");
        QVERIFY(event.ok());
        QCOMPARE(event->type, KubeWatchEvent::Type::Error);
        QCOMPARE(event->status.code, 410);
        QCOMPARE(qs(event->status.reason), QStringLiteral("Expired"));
        QVERIFY(event->status.message.find("too old") != std::string::npos);
    }

    void status() {
        const std::optional<KubeStatus> notFound = readKubeStatus(dataFile("status-404.json"));
        QVERIFY(notFound);
        QCOMPARE(notFound->code, 404);
        QCOMPARE(qs(notFound->reason), QStringLiteral("NotFound"));
        QVERIFY(!readKubeStatus("<html><body>502 Bad Gateway</body></html>"));
        QVERIFY(!readKubeStatus(R"({"kind":"Pod","code":3})"));
    }

    void badInput_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("error");
        QTest::newRow("truncated") << QStringLiteral("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"na") // moc misreads this as a raw string
                                   << QStringLiteral("watch: invalid JSON");
        QTest::newRow("unknown type") << QStringLiteral(R"({"type":"RENAMED","object":{}})")
                                      << QStringLiteral("unknown watch event type \"RENAMED\"");
        QTest::newRow("object first") << QStringLiteral(R"({"object":{"kind":"Node"},"type":"ADDED"})")
                                      << QStringLiteral("object before its type");
        QTest::newRow("no object") << QStringLiteral(R"({"type":"ADDED"})")
                                   << QStringLiteral("needs a type and an object");
        QTest::newRow("other kind")
            << QStringLiteral(R"({"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}})")
            << QStringLiteral("not asked for");
        QTest::newRow("bad quantity")
            << QStringLiteral(R"({"type":"ADDED","object":{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"},)"
                              R"("status":{"allocatable":{"nvidia.com/gpu":"8x"}}}})")
            << QStringLiteral("Node n: status.allocatable[\"nvidia.com/gpu\"]: invalid quantity");
    }

    void badInput() {
        QFETCH(QString, line);
        QFETCH(QString, error);
        std::string text = line.toStdString();
        KubeResponseReader reader;
        Result<KubeWatchEvent> event = reader.readWatchEvent(text, "watch");
        QVERIFY(!event.ok());
        QVERIFY2(qs(event.error().message).contains(error), event.error().message.c_str());
    }

    void mixedListIsAnError() {
        std::string body = R"({"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[)"
                           R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},)"
                           R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"b"}}]})";
        KubeResponseReader reader;
        Result<KubeListPage> page = reader.readListPage(body, "GET /api/v1/nodes");
        QVERIFY(!page.ok());
        QVERIFY2(page.error().message.find("not asked for") != std::string::npos, page.error().message.c_str());
    }

    // ResourceFlavors and HyperNodes read from a file, held by the state, written and read back.
    void topologyObjectsRoundTrip() {
        const std::string text = R"({"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-1","labels":{"rack":"r1"}},"status":{"allocatable":{"nvidia.com/gpu":"8"},"conditions":[{"type":"Ready","status":"True"}]}},
{"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ResourceFlavor","metadata":{"name":"gpu-flavor","resourceVersion":"7"},"spec":{"nodeLabels":{"pool":"gpu","cloud":"x"},"topologyName":"default"}},
{"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Topology","metadata":{"name":"default"},"spec":{"levels":[{"nodeLabel":"rack"}]}},
{"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"s0"},"spec":{"tier":1,"tierName":"leaf","members":[
  {"type":"Node","selector":{"exactMatch":{"name":"gpu-1"}}},{"type":"Node","selector":{"regexMatch":{"pattern":"^gpu-2"}}},
  {"type":"Node","selector":{"labelMatch":{"matchLabels":{"rack":"r1"},"matchExpressions":[{"key":"pool","operator":"In","values":["a","b"]}]}}}]}},
{"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"s1"},"spec":{"tier":2,"members":[{"type":"HyperNode","selector":{"exactMatch":{"name":"s0"}}}]}}
]})";
        Result<Snapshot> snapshot = readSnapshotText(text, "cluster.json");
        QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
        QVERIFY(snapshot->warnings.empty());
        QCOMPARE(snapshot->resourceFlavors.size(), std::size_t(1));
        const ResourceFlavor& flavor = snapshot->resourceFlavors[0];
        QCOMPARE(qs(flavor.topologyName), QStringLiteral("default"));
        QCOMPARE(flavor.nodeLabels, (std::vector<std::pair<std::string, std::string>>{{"cloud", "x"}, {"pool", "gpu"}}));

        ClusterState state;
        std::move(*snapshot).applyTo(state);
        QCOMPARE(state.resourceFlavors().size(), std::size_t(1));
        QCOMPARE(state.hyperNodes().size(), std::size_t(2));

        Result<Snapshot> again = readSnapshotText(writeSnapshotJson(state), "written");
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        ClusterState copy;
        std::move(*again).applyTo(copy);
        QVERIFY(copy.resourceFlavors() == state.resourceFlavors());
        QVERIFY(copy.hyperNodes() == state.hyperNodes());
        QVERIFY(copy.topologies() == state.topologies());

        // Deleting a Topology names its origin, so that a KAI Topology of the same name stays.
        QVERIFY(!copy.apply(TopologyDeleted{"default", "kai"}).topologiesChanged);
        QVERIFY(copy.apply(TopologyDeleted{"default", "kueue"}).topologiesChanged);
        QVERIFY(copy.apply(HyperNodeDeleted{"s1"}).hyperNodesChanged);
        (void)copy.apply(ResourceFlavorDeleted{"gpu-flavor"});
        QVERIFY(copy.resourceFlavors().empty());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeResponseReader)
#include "test_kube_response_reader.moc"
