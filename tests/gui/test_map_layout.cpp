// The topology map's geometry: boxes nest, siblings never overlap, hit-testing finds what is drawn,
// level of detail switches where it should, and a 65,536-node layout builds quickly.
#include "../unit/unit_builders.h"
#include "core/demo/demo_cluster.h"
#include "support/demo_loader.h"
#include "views/map/topology_map_layout.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QTest>

#include <memory>

using namespace topodeck;

namespace {

using Built = testing::LoadedDemo;

std::unique_ptr<Built> buildDemo(const QString& name) {
    return std::make_unique<Built>(testing::loadDemo(name.toStdString()));
}

// Rects that share only an edge do not overlap.
bool overlaps(const QRectF& a, const QRectF& b) {
    const QRectF i = a.intersected(b);
    return i.width() > 1e-9 && i.height() > 1e-9;
}

bool inside(const QRectF& inner, const QRectF& outer) {
    const double e = 1e-9;
    return inner.left() >= outer.left() - e && inner.top() >= outer.top() - e && inner.right() <= outer.right() + e &&
           inner.bottom() <= outer.bottom() + e;
}

// A scale at which nothing is collapsed.
constexpr double kCloseUp = 40.0;

} // namespace

class TestMapLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nesting_data();
    void nesting();
    void hitTest_data();
    void hitTest();
    void levelOfDetail();
    void nvlinkOutlines();
    void physicalNvlinkDomain_data();
    void physicalNvlinkDomain();
    void nvlinkPartitions();
    void signatureIgnoresOccupancy();
    void largeClusterBuilds();
};

void TestMapLayout::nesting_data() {
    QTest::addColumn<QString>("demo");
    QTest::addColumn<double>("aspect");
    QTest::newRow("gb200 wide") << QStringLiteral("gb200") << 1.6;
    QTest::newRow("gb200 tall") << QStringLiteral("gb200") << 0.6;
    QTest::newRow("h100") << QStringLiteral("h100") << 1.0;
    QTest::newRow("scale:4096") << QStringLiteral("scale:4096") << 1.3;
    QTest::newRow("scale:7 (odd)") << QStringLiteral("scale:7") << 1.0;
}

void TestMapLayout::nesting() {
    QFETCH(QString, demo);
    QFETCH(double, aspect);
    const auto built = buildDemo(demo);
    const TopologyIndex& index = built->index;
    TopologyMapLayout layout;
    layout.build(index, aspect);
    QVERIFY(!layout.isEmpty());
    QCOMPARE(layout.domainRect(kRootDomain), layout.bounds());

    std::size_t nodesPlaced = 0;
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive) continue;
        const QRectF rect = layout.domainRect(id);
        const QRectF content = layout.contentRect(id);
        QVERIFY(!rect.isEmpty());
        QVERIFY(inside(content, rect));
        if (id != kRootDomain) {
            QVERIFY(!layout.headerRect(id).isEmpty());
            QVERIFY(!overlaps(layout.headerRect(id), content));
        }
        std::vector<QRectF> siblings;
        for (DomainId child : domain.children) {
            if (!index.domain(child).alive) continue;
            const QRectF childRect = layout.domainRect(child);
            QVERIFY2(inside(childRect, content), index.pathName(child).c_str());
            for (const QRectF& other : siblings) QVERIFY2(!overlaps(childRect, other), index.pathName(child).c_str());
            siblings.push_back(childRect);
        }
        siblings.clear();
        for (NodeId node : domain.nodes) {
            const QRectF nodeRect = layout.nodeRect(node);
            QVERIFY(inside(nodeRect, content));
            for (const QRectF& other : siblings) QVERIFY(!overlaps(nodeRect, other));
            siblings.push_back(nodeRect);
            for (int gpu = 0; gpu < index.node(node).gpusTotal; ++gpu)
                QVERIFY(inside(layout.gpuRect(node, gpu), nodeRect));
            ++nodesPlaced;
        }
    }
    QCOMPARE(qint64(nodesPlaced), index.root().totals.nodesTotal);
}

void TestMapLayout::hitTest_data() {
    QTest::addColumn<QString>("demo");
    QTest::newRow("gb200") << QStringLiteral("gb200");
    QTest::newRow("h100") << QStringLiteral("h100");
    QTest::newRow("scale:4096") << QStringLiteral("scale:4096");
}

void TestMapLayout::hitTest() {
    QFETCH(QString, demo);
    const auto built = buildDemo(demo);
    const TopologyIndex& index = built->index;
    TopologyMapLayout layout;
    layout.build(index, 1.4);

    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        if (!index.domain(id).alive) continue;
        const TopologyMapLayout::Hit onHeader = layout.hitTest(index, layout.headerRect(id).center(), kCloseUp);
        QCOMPARE(onHeader.domain, id);
        QCOMPARE(onHeader.node, TopologyMapLayout::kNoNode);
    }
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& stats = index.node(id);
        if (stats.leaf == kNoDomain) continue;
        const TopologyMapLayout::Hit onNode = layout.hitTest(index, layout.nodeRect(id).center(), kCloseUp);
        QCOMPARE(onNode.node, id);
        QCOMPARE(onNode.domain, stats.leaf);
        if (stats.gpusTotal > 0) {
            const TopologyMapLayout::Hit onGpu = layout.hitTest(index, layout.gpuRect(id, 0).center(), kCloseUp);
            QCOMPARE(onGpu.node, id);
        }
    }
    const QRectF bounds = layout.bounds();
    QCOMPARE(layout.hitTest(index, bounds.topLeft() - QPointF(1, 1), kCloseUp).domain, kNoDomain);
    QCOMPARE(layout.hitTest(index, bounds.bottomRight() + QPointF(1, 1), kCloseUp).domain, kNoDomain);
}

void TestMapLayout::levelOfDetail() {
    const auto built = buildDemo(QStringLiteral("gb200"));
    const TopologyIndex& index = built->index;
    TopologyMapLayout layout;
    layout.build(index, 1.0);

    NodeId node = 0;
    while (index.node(node).leaf == kNoDomain) ++node;
    const DomainId leaf = index.node(node).leaf;
    const QRectF nodeRect = layout.nodeRect(node);
    const double nodeSide = std::min(nodeRect.width(), nodeRect.height());
    const double threshold = TopologyMapLayout::kMinNodePixels / nodeSide;

    // Just above the threshold the node is drawn and hit; just below, its rack is one block.
    QVERIFY(!layout.collapsedAt(leaf, threshold * 1.01));
    QCOMPARE(layout.hitTest(index, nodeRect.center(), threshold * 1.01).node, node);
    QVERIFY(layout.collapsedAt(leaf, threshold * 0.99));
    const TopologyMapLayout::Hit coarse = layout.hitTest(index, nodeRect.center(), threshold * 0.99);
    QCOMPARE(coarse.domain, leaf);
    QCOMPARE(coarse.node, TopologyMapLayout::kNoNode);

    // Far out, the whole cluster is one block.
    QVERIFY(layout.collapsedAt(kRootDomain, 1e-4));
    QCOMPARE(layout.hitTest(index, nodeRect.center(), 1e-4).domain, kRootDomain);
    // Close up nothing is collapsed.
    for (DomainId id = 0; id < index.domainSlots(); ++id)
        if (index.domain(id).alive) QVERIFY(!layout.collapsedAt(id, kCloseUp));
}

void TestMapLayout::nvlinkOutlines() {
    // gb200: each rack is one NVLink domain (NVL72), so each rack gets one outline around its nodes.
    const auto gb200 = buildDemo(QStringLiteral("gb200"));
    TopologyMapLayout layout;
    layout.build(gb200->index, 1.0);
    int racks = 0;
    for (DomainId id = 0; id < gb200->index.domainSlots(); ++id) {
        const Domain& domain = gb200->index.domain(id);
        if (!domain.alive || domain.nodes.empty()) continue;
        ++racks;
        const auto outlines = layout.nvlinkOutlines(id);
        // su-4/rack-4-08 is split in two partitions, outlined inside the rack's own outline.
        const bool partitioned = gb200->index.pathName(id) == "su-4/rack-4-08";
        QCOMPARE(outlines.size(), std::size_t(partitioned ? 3 : 1));
        if (partitioned) QCOMPARE(outlines[1].nodeCount + outlines[2].nodeCount, 18u);
        QCOMPARE(outlines.front().nodeCount, std::uint32_t(domain.nodes.size()));
        for (NodeId node : domain.nodes) QVERIFY(inside(layout.nodeRect(node), outlines.front().rect));
        QVERIFY(inside(outlines.front().rect, layout.domainRect(id)));
    }
    QCOMPARE(racks, 32);

    // h100: the NVLink island is the node itself, which needs no outline.
    const auto h100 = buildDemo(QStringLiteral("h100"));
    layout.build(h100->index, 1.0);
    for (DomainId id = 0; id < h100->index.domainSlots(); ++id) QVERIFY(layout.nvlinkOutlines(id).empty());
}

void TestMapLayout::physicalNvlinkDomain_data() {
    QTest::addColumn<QString>("clique");
    QTest::addColumn<QString>("physical");
    // GPU feature discovery writes <ClusterUUID>.<CliqueID>.
    QTest::newRow("uuid and clique") << "8b2c0e5a-1f3d-4c1e-9a7b-2d1e0f3c4b5a.32766"
                                     << "8b2c0e5a-1f3d-4c1e-9a7b-2d1e0f3c4b5a";
    QTest::newRow("clique 0") << "abc.0" << "abc";
    QTest::newRow("no clique id") << "abc" << "abc";
    QTest::newRow("not a number after the dot") << "rack.a" << "rack.a";
    QTest::newRow("trailing dot") << "abc." << "abc.";
    QTest::newRow("leading dot") << ".7" << ".7";
    QTest::newRow("dots inside the uuid part") << "a.b.3" << "a.b";
}

void TestMapLayout::physicalNvlinkDomain() {
    QFETCH(QString, clique);
    QFETCH(QString, physical);
    const std::string value = clique.toStdString();
    QCOMPARE(QString::fromStdString(std::string(TopologyMapLayout::physicalNvlinkDomain(value))), physical);
}

void TestMapLayout::nvlinkPartitions() {
    // rack r1: one NVL72 split into two partitions (cliques u1.1 and u1.2) plus a node elsewhere;
    // rack r2: one unsplit domain (u2.0). The split rack gets its physical outline and one per
    // partition inside it; the unsplit one only its physical outline.
    using testing::makeNode;
    ClusterState state;
    const std::pair<const char*, const char*> r1[] = {{"a1", "u1.1"}, {"a2", "u1.1"}, {"a3", "u1.1"},
                                                      {"a4", "u1.2"}, {"a5", "u1.2"}, {"a6", "lone.0"}};
    for (const auto& [name, clique] : r1) (void)state.apply(NodeUpserted{makeNode(name, "b", "r1", 4, true, false, clique)});
    for (const char* name : {"b1", "b2", "b3"}) (void)state.apply(NodeUpserted{makeNode(name, "b", "r2", 4, true, false, "u2.0")});
    TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    const TopologyIndex index = TopologyIndex::build(state, spec);
    TopologyMapLayout layout;
    layout.build(index, 1.0);
    const DomainId block = index.root().children.front();
    const DomainId rack1 = index.domain(block).children[0], rack2 = index.domain(block).children[1];

    const auto split = layout.nvlinkOutlines(rack1);
    QCOMPARE(split.size(), std::size_t(3));
    QCOMPARE(split[0].partition, -1);
    QCOMPARE(split[0].partitions, 2);
    QCOMPARE(split[0].nodeCount, 5u);
    for (std::size_t i = 1; i < 3; ++i) {
        QCOMPARE(split[i].partition, int(i) - 1);
        QVERIFY(inside(split[i].rect, split[0].rect));
    }
    QCOMPARE(split[1].nodeCount + split[2].nodeCount, 5u);
    QCOMPARE(QString::fromStdString(index.nvlinkName(split[1].nvlinkDomain)), QStringLiteral("u1.1"));
    QCOMPARE(QString::fromStdString(index.nvlinkName(split[2].nvlinkDomain)), QStringLiteral("u1.2"));
    for (NodeId node : index.domain(rack1).nodes) {
        const std::int32_t clique = index.node(node).nvlinkDomain;
        for (std::size_t i = 1; i < 3; ++i)
            if (split[i].nvlinkDomain == clique) QVERIFY(inside(layout.nodeRect(node), split[i].rect));
    }

    const auto whole = layout.nvlinkOutlines(rack2);
    QCOMPARE(whole.size(), std::size_t(1));
    QCOMPARE(whole[0].partition, -1);
    QCOMPARE(whole[0].partitions, 1);
}

void TestMapLayout::signatureIgnoresOccupancy() {
    auto built = buildDemo(QStringLiteral("h100"));
    const std::uint64_t before = TopologyMapLayout::signatureOf(built->index);
    // Finishing one running pod changes occupancy only.
    const Pod* victim = nullptr;
    built->state.forEachPod([&victim](const Pod& pod) {
        if (!victim && !pod.nodeName.empty()) victim = &pod;
    });
    QVERIFY(victim);
    const AppliedEvent applied = built->state.apply(PodDeleted{victim->nameSpace, victim->name});
    built->index.apply(built->state, applied);
    QCOMPARE(TopologyMapLayout::signatureOf(built->index), before);

    // Removing a node changes what is drawn.
    const std::string name = built->state.record(0).node->name;
    built->index.apply(built->state, built->state.apply(NodeDeleted{name}));
    QVERIFY(TopologyMapLayout::signatureOf(built->index) != before);
}

void TestMapLayout::largeClusterBuilds() {
    const auto built = buildDemo(QStringLiteral("scale:65536"));
    TopologyMapLayout layout;
    QElapsedTimer timer;
    timer.start();
    layout.build(built->index, 1.5);
    const qint64 ms = timer.elapsed();
    qInfo("scale:65536 layout: %lld ms", ms);
    QVERIFY(!layout.isEmpty());
    QVERIFY2(ms < 2000, "layout of 65,536 nodes took over 2 s");

    // At a fit-to-window scale the racks are blocks, not 65,536 nodes.
    const double fitScale = 1500.0 / layout.bounds().width();
    const NodeId node = 12345;
    QVERIFY(layout.collapsedAt(built->index.node(node).leaf, fitScale));
    for (NodeId id = 0; id < built->index.nodeSlots(); ++id)
        if (built->index.node(id).leaf != kNoDomain) QVERIFY(!layout.nodeRect(id).isEmpty());
}

TOPODECK_TEST_GUILESS_MAIN(TestMapLayout)
#include "test_map_layout.moc"
