// The tree's side of the filter bar on scale:65536: the filter model taking a new mask (the
// domains holding matches are counted again) and the rows a fully expanded tree would then ask
// for. With bench_filter's mask, what the window does when a filter is applied, before painting.
#include "core/demo/demo_cluster.h"
#include "core/topology/label_selector.h"
#include "models/topology_filter_model.h"
#include "models/topology_tree_model.h"
#include "session/cluster_snapshot.h"
#include "support/demo_loader.h"

#include <QCoreApplication>

#include <benchmark/benchmark.h>

#include <stdexcept>

using namespace topodeck;

namespace {

ClusterSnapshotPtr bigSnapshot() {
    static const ClusterSnapshotPtr snapshot = [] {
        const testing::LoadedDemo demo = testing::loadDemo("scale:65536");
        return makeClusterSnapshot(demo.state, demo.index);
    }();
    return snapshot;
}

// Every row the filter shows, as expandAll() would visit them.
int visibleRows(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int rows = model.rowCount(parent);
    int total = rows;
    for (int row = 0; row < rows; ++row) {
        const QModelIndex child = model.index(row, 0, parent);
        if (!child.data(TopologyTreeModel::IsNodeRole).toBool()) total += visibleRows(model, child);
    }
    return total;
}

void applyFilter(benchmark::State& st, const char* text) {
    const ClusterSnapshotPtr snapshot = bigSnapshot();
    TopologyTreeModel tree;
    tree.setSnapshot(snapshot);
    TopologyFilterModel filter(&tree);
    auto selector = LabelSelector::parse(text);
    if (!selector) throw std::runtime_error(selector.error().message);
    int rows = 0;
    for (auto _ : st) {
        auto mask = std::make_shared<const NodeMask>(matchNodes(*selector, snapshot->nodes, snapshot->index));
        filter.setNodeMask(mask);
        rows = visibleRows(filter);
        st.PauseTiming();
        filter.setNodeMask(nullptr); // so that the next round filters afresh
        st.ResumeTiming();
    }
    st.counters["rows"] = rows;
}

// 1,024 nodes in 4 agg domains: 4 aggs, their 32 racks, the spines and cores above.
void BM_TreeFilterFourAggs(benchmark::State& st) {
    applyFilter(st, "topology.k8s.aws/network-node-layer-3 in (agg-001, agg-017, agg-042, agg-100)");
}
BENCHMARK(BM_TreeFilterFourAggs)->Unit(benchmark::kMillisecond);

// One rack's 32 nodes.
void BM_TreeFilterOneRack(benchmark::State& st) {
    applyFilter(st, "topology.k8s.aws/network-node-layer-4=rack-0100");
}
BENCHMARK(BM_TreeFilterOneRack)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
