#include "cluster_input.h"

#include "terminal.h"

#include "core/snapshot_reader.h"
#include "core/topology_presets.h"

#include <algorithm>

namespace topodeck::cli {
namespace {

constexpr std::size_t kMaxWarningsShown = 20;

void printWarnings(const std::vector<std::string>& warnings) {
    const std::size_t shown = std::min(warnings.size(), kMaxWarningsShown);
    for (std::size_t i = 0; i < shown; ++i) printWarning(warnings[i]);
    if (warnings.size() > shown) printWarning(std::to_string(warnings.size() - shown) + " more warnings not shown");
}

Result<Snapshot> readInput(const std::string& file) {
    if (file != "-") return readSnapshotFile(file);
    auto text = readAll(stdin);
    if (!text) return text.error();
    return readSnapshotText(*text, "stdin");
}

} // namespace

Result<ClusterSource> ClusterSource::fromArgs(const ParsedArgs& args) {
    const std::string* demo = args.value("demo");
    const std::string* file = args.value("filename");
    const std::string* context = args.value("context");
    const std::string* kubeconfig = args.value("kubeconfig");
    const bool inCluster = args.has("in-cluster");
    const bool live = context || kubeconfig || inCluster;
    if (int(demo != nullptr) + int(file != nullptr) + int(live) != 1)
        return Error{"give one of --demo NAME, -f FILE, or a live cluster (--context NAME, --kubeconfig FILE, "
                     "--in-cluster)"};
    ClusterSource source;
    if (demo != nullptr) source.demo = *demo;
    if (file != nullptr) {
        if (file->empty()) return Error{"-f needs a file name, or - for stdin"};
        source.file = *file;
    }
    if (live) {
        if (inCluster && (context || kubeconfig)) return Error{"--in-cluster takes no --context or --kubeconfig"};
        if (context && context->empty()) return Error{"--context needs a name"};
        if (kubeconfig && kubeconfig->empty()) return Error{"--kubeconfig needs a file"};
        source.live = LiveTarget{context ? *context : std::string(), kubeconfig ? *kubeconfig : std::string(),
                                 inCluster};
    }
    if (const std::string* timeout = args.value("sync-timeout")) {
        if (!live) return Error{"--sync-timeout only applies to a live cluster"};
        auto seconds = parseSecondsValue("--sync-timeout", *timeout);
        if (!seconds) return seconds.error();
        source.syncTimeout = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
    }
    return source;
}

std::string ClusterSource::describe(const std::optional<DemoCluster>& loadedDemo, bool forPeople,
                                    const LiveConnection* connection) const {
    if (loadedDemo) {
        if (!forPeople) return "demo:" + loadedDemo->name;
        return "demo " + loadedDemo->name + (loadedDemo->title.empty() ? "" : " · " + loadedDemo->title);
    }
    if (connection) {
        const KubeConnection& c = connection->connection();
        return forPeople ? "context " + c.contextName + " · " + c.server : "context:" + c.contextName;
    }
    return file == "-" ? std::string("stdin") : file;
}

std::vector<FlagSpec> liveClusterFlags() {
    return {
        {"context", 0, "NAME", "a live cluster: this kubeconfig context (kubectl's rules for finding the\nkubeconfig)"},
        {"kubeconfig", 0, "FILE", "a live cluster from this kubeconfig only (its current-context unless\n--context)"},
        {"in-cluster", 0, "", "a live cluster: this pod's service account"},
        {"sync-timeout", 0, "SECONDS", "how long to wait for a live cluster to be listed (default 60)"},
    };
}

Result<HierarchyChoice> HierarchyChoice::fromArgs(const ParsedArgs& args) {
    HierarchyChoice choice;
    if (const std::string* levels = args.value("levels")) {
        choice.levels = splitList(*levels);
        if (choice.levels.empty()) return Error{"--levels needs at least one node-label key"};
    }
    if (const std::string* topology = args.value("topology")) {
        if (!choice.levels.empty()) return Error{"use either --levels or --topology, not both"};
        if (topology->empty()) return Error{"--topology needs a name"};
        choice.topologyName = *topology;
    }
    if (const std::string* gpus = args.value("gpu-resources")) {
        if (splitList(*gpus).empty()) return Error{"--gpu-resources needs at least one resource name"};
        choice.gpus = GpuResources::fromList(*gpus);
    }
    return choice;
}

Result<TopologySpec> HierarchyChoice::resolve(const LoadedCluster& cluster) const {
    return resolveTopology(cluster.state, topologyName, levels, cluster.demo ? &cluster.demo->topology : nullptr);
}

Result<ClusterArgs> ClusterArgs::fromArgs(const ParsedArgs& args, std::string_view command) {
    if (!args.positionals().empty())
        return Error{"unexpected argument \"" + args.positionals().front() + "\" (" + std::string(command) +
                     " takes only flags)"};
    auto source = ClusterSource::fromArgs(args);
    if (!source) return source.error();
    auto hierarchy = HierarchyChoice::fromArgs(args);
    if (!hierarchy) return hierarchy.error();
    return ClusterArgs{std::move(*source), std::move(*hierarchy)};
}

Result<std::unique_ptr<LoadedCluster>> loadCluster(const ClusterSource& source) {
    auto loaded = std::make_unique<LoadedCluster>();
    if (!source.demo.empty()) {
        auto demo = makeDemoCluster(source.demo);
        if (!demo) return demo.error();
        // Copies: the events stay with the demo, which --watch's simulator learns its gangs from.
        for (const ClusterEvent& event : demo->events) (void)loaded->state.apply(event);
        loaded->demo = std::move(*demo);
        return loaded;
    }
    if (source.live) {
        auto live = LiveConnection::open(*source.live);
        if (!live) return live.error();
        ClusterState& state = loaded->state;
        Status synced = (*live)->waitForSync(source.syncTimeout, [&](ClusterEvent&& event) {
            (void)state.apply(std::move(event));
        });
        if (!synced) return Error{"context \"" + (*live)->connection().contextName + "\": " + synced.error().message};
        printWarnings(resourceProblems((*live)->status()));
        loaded->live = std::move(*live);
        return loaded;
    }
    auto snapshot = readInput(source.file);
    if (!snapshot) return snapshot.error();
    printWarnings(snapshot->warnings);
    std::move(*snapshot).applyTo(loaded->state);
    return loaded;
}

int reportLoadError(const ClusterSource& source, const Error& error) {
    return source.live ? runtimeError(error.message) : usageError(error.message);
}

} // namespace topodeck::cli
