// A review bundle of the story: a relabel that merges a rack into its neighbour under a
// running gang whose pods carry Kueue's injected nodeSelector. The README says what changes, that
// it strands the gang, and how each scheduler would place the same gang before and after; the
// plan, the labels and the gang manifests read back through topodeck's own readers; the maps
// outline exactly the nodes the plan touches. Without a plan it is the hierarchy as it is; past
// kMapSvgNodeCells nodes the map draws one cell per rack.
#include "core/changes/change_plan_file.h"
#include "core/demo/demo_cluster.h"
#include "core/exports/map_svg.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/reports/review_bundle.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;

namespace {

constexpr const char* kRackLabel = "fabric.topograph.run/tier-0";

struct Demo {
    ClusterState state;
    TopologySpec spec;
    TopologyIndex index() const { return TopologyIndex::build(state, spec); }
};

Demo demo(const char* name) {
    testing::LoadedDemo loaded = testing::loadDemo(name);
    return Demo{std::move(loaded.state), std::move(loaded.demo.topology)};
}

// A running JobSet on the first two nodes of su-1/rack-1-03, pinned there as Kueue TAS pins it.
void addPinnedGang(Demo& d) {
    const TopologyIndex index = d.index();
    auto rack = findDomainByName(index, "su-1/rack-1-03", "test");
    if (!rack) qFatal("%s", rack.error().message.c_str());
    for (int i = 0; i < 2; ++i) {
        Pod pod;
        pod.nameSpace = "team";
        pod.name = "train-a-" + std::to_string(i);
        pod.nodeName = d.state.record(index.domain(*rack).nodes[std::size_t(i)]).node->name;
        pod.phase = PodPhase::Running;
        pod.workload = "train-a";
        pod.workloadKind = WorkloadKind::JobSet;
        pod.nodeSelector = {{"fabric.topograph.run/tier-1", "su-1"}, {kRackLabel, "rack-1-03"}};
        (void)d.state.apply(PodUpserted{std::move(pod)});
    }
}

ChangePlan mergeRack(const Demo& d) {
    ChangePlan plan;
    plan.name = "merge-rack-1-03";
    plan.cluster = "demo gb200";
    plan.description = "Rack 1-03's leaf switch is retired; its trays move to rack 1-02's.";
    LabelOperation operation;
    operation.target.domain = "su-1/rack-1-03";
    operation.edits = {{kRackLabel, std::string("rack-1-02")}};
    if (Status added = addLabelOperation(plan, d.state, d.index(), operation); !added) qFatal("%s", added.error().message.c_str());
    return plan;
}

const ExportFile* file(const ReviewBundle& bundle, const std::string& name) {
    for (const ExportFile& f : bundle.files)
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<std::string> names(const ReviewBundle& bundle) {
    std::vector<std::string> out;
    for (const ExportFile& f : bundle.files) out.push_back(f.name);
    return out;
}

std::size_t count(const std::string& text, std::string_view what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

} // namespace

class TestReviewBundle : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aRelabelUnderARunningGang() {
        Demo d = demo("gb200");
        addPinnedGang(d);
        const TopologyIndex index = d.index();
        const ChangePlan plan = mergeRack(d);
        QCOMPARE(plan.labelChanges.size(), std::size_t(18));
        auto query = parsePlanQuery("--pods 20 --request nvidia.com/gpu=4 --required rack");
        QVERIFY(query.ok());
        ReviewBundleRequest request;
        request.source = "demo gb200";
        request.plan = &plan;
        request.dryRun = &*query;
        auto bundle = reviewBundle(d.state, index, request);
        QVERIFY2(bundle.ok(), bundle ? "" : bundle.error().message.c_str());

        QCOMPARE(names(*bundle),
                 (std::vector<std::string>{"README.md", "change-plan.yaml", "preview.txt", "node-labels.yaml",
                                           "kubectl-label.sh", "kueue-topology.yaml", "kai-topology.yaml",
                                           "hypernodes.yaml", "topology.conf", "topology.yaml", "gang-kueue.yaml",
                                           "gang-kai.yaml", "gang-volcano.yaml", "gang.sbatch", "map-before.svg",
                                           "map-after.svg"}));
        QVERIFY(bundle->warnings.empty());

        const std::string& readme = file(*bundle, "README.md")->text;
        for (const char* expected :
             {"# Review: merge-rack-1-03", "Rack 1-03's leaf switch is retired", "18 label changes on 18 nodes",
              "`fabric.topograph.run/tier-0=rack-1-02` on --domain su-1/rack-1-03",
              "The cluster still holds every value the plan found", "1 domain removed: `su-1/rack-1-03`",
              "**Strands `team/train-a (JobSet)`** (2 pods)", "| engine | before | after |", "| kueue-tas | ",
              "| volcano | ", "| kai | ", "![after](map-after.svg)", "topodeckctl apply -f change-plan.yaml",
              "| gang-kueue.yaml |"})
            QVERIFY2(readme.find(expected) != std::string::npos, (std::string(expected) + "\n---\n" + readme).c_str());
        // 20 pods of a whole tray each cannot fit an 18-tray rack; after the merge a 36-tray rack
        // exists, so whether it fits after depends on its free trays: the README says what a
        // dry-run of the state after says.
        QVERIFY(readme.find("| kueue-tas | **does not fit**") != std::string::npos);

        // What a colleague applies reads back as what was planned.
        auto reread = readChangePlan(file(*bundle, "change-plan.yaml")->text, "change-plan.yaml");
        QVERIFY(reread.ok());
        QCOMPARE(*reread, plan);
        QCOMPARE(count(file(*bundle, "kubectl-label.sh")->text, "kubectl label node "), std::size_t(18));
        PlanQuery gang;
        gang.manifest = "gang-kueue.yaml";
        gang.manifestText = file(*bundle, "gang-kueue.yaml")->text;
        auto read = planGang(gang);
        QVERIFY2(read.ok(), read ? "" : read.error().message.c_str());
        QCOMPARE(read->pods, 20);
        // The hierarchy after: rack-1-03 is gone from the Slurm tree, its nodes under rack-1-02.
        const std::string& conf = file(*bundle, "topology.conf")->text;
        QVERIFY(conf.find("rack-1-03") == std::string::npos);
        QVERIFY(conf.find("rack-1-02") != std::string::npos);

        // Exactly the 18 nodes the plan touches are outlined, before and after.
        for (const char* map : {"map-before.svg", "map-after.svg"}) {
            const std::string& svg = file(*bundle, map)->text;
            QVERIFY(svg.starts_with("<?xml"));
            QVERIFY(svg.ends_with("</svg>\n"));
            QCOMPARE(count(svg, ", labels the plan changes</title>"), std::size_t(18));
            // A cell per node, an outline round each of the 18, a frame per rack (one fewer
            // after), the legend's six.
            const std::size_t racks = std::string_view(map) == "map-before.svg" ? 32 : 31;
            QCOMPARE(count(svg, "<rect x="), d.state.presentNodeCount() + 18 + racks + 6);
        }
    }

    void withoutAPlanItIsTheHierarchyNow() {
        const Demo d = demo("h100");
        ReviewBundleRequest request;
        request.source = "demo h100";
        auto bundle = reviewBundle(d.state, d.index(), request);
        QVERIFY(bundle.ok());
        QCOMPARE(names(*bundle), (std::vector<std::string>{"README.md", "kueue-topology.yaml", "kai-topology.yaml",
                                                           "hypernodes.yaml", "topology.conf", "topology.yaml", "map.svg"}));
        const std::string& readme = file(*bundle, "README.md")->text;
        QVERIFY(readme.find("# Review: the hierarchy of demo h100") != std::string::npos);
        QVERIFY(readme.find("How to apply") == std::string::npos);
        QVERIFY(file(*bundle, "map.svg")->text.find("stroke=\"#c2185b\"") == std::string::npos);
    }

    // A bad request is the request's error, as plan says it.
    void aBadDryRunIsAnError() {
        const Demo d = demo("gb200");
        auto query = parsePlanQuery("--pods 4 --request nvidia.com/gpu=4 --required zone");
        QVERIFY(query.ok());
        ReviewBundleRequest request;
        request.dryRun = &*query;
        auto bundle = reviewBundle(d.state, d.index(), request);
        if (bundle.ok()) {
            // Engines report an unknown level as an invalid request rather than an error.
            QVERIFY(file(*bundle, "README.md")->text.find("cannot ask") != std::string::npos);
            QVERIFY(file(*bundle, "gang-kueue.yaml") == nullptr);
            QVERIFY(!bundle->warnings.empty());
        }
    }

    // Past kMapSvgNodeCells nodes, a cell per rack: the picture stays a few hundred KiB.
    void largeClustersDrawRacks() {
        const Demo d = demo("scale:8192");
        const TopologyIndex index = d.index();
        const std::string svg = topologyMapSvg(d.state, index, {});
        QVERIFY(svg.find("one cell per") != std::string::npos);
        QVERIFY(d.state.presentNodeCount() > kMapSvgNodeCells);
        QVERIFY2(svg.size() < 2'000'000, std::to_string(svg.size()).c_str());
        QVERIFY(svg.find(d.state.record(0).node->name + ':') == std::string::npos);
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestReviewBundle)
#include "test_review_bundle.moc"
