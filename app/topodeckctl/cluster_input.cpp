#include "cluster_input.h"

#include "terminal.h"

#include "core/changes/change_plan_file.h"
#include "core/formats/snapshot_reader.h"
#include "core/model/node_gpus.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/topology_presets.h"

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

Result<ClusterSource> ClusterSource::fromArgs(const ParsedArgs& args, std::string_view snapshotFlag) {
    const std::string* demo = args.value("demo");
    const std::string* file = args.value(std::string(snapshotFlag));
    const std::string fileFlag = snapshotFlag == "filename" ? "-f" : "--" + std::string(snapshotFlag);
    const std::string* context = args.value("context");
    const std::string* kubeconfig = args.value("kubeconfig");
    const bool inCluster = args.has("in-cluster");
    const std::string* slurm = args.value("slurm");
    const bool kube = context || kubeconfig || inCluster;
    const bool live = kube || slurm;
    if (int(demo != nullptr) + int(file != nullptr) + int(kube) + int(slurm != nullptr) != 1)
        return Error{"give one of --demo NAME, " + fileFlag +
                     " FILE, or a live cluster (--context NAME, --kubeconfig FILE, --in-cluster, --slurm URL|cli)"};
    ClusterSource source;
    if (demo != nullptr) source.demo = *demo;
    if (file != nullptr) {
        if (file->empty()) return Error{fileFlag + " needs a file name, or - for stdin"};
        source.file = *file;
    }
    if (kube) {
        if (inCluster && (context || kubeconfig)) return Error{"--in-cluster takes no --context or --kubeconfig"};
        if (context && context->empty()) return Error{"--context needs a name"};
        if (kubeconfig && kubeconfig->empty()) return Error{"--kubeconfig needs a file"};
        source.live.emplace();
        source.live->context = context ? *context : std::string();
        source.live->kubeconfig = kubeconfig ? *kubeconfig : std::string();
        source.live->inCluster = inCluster;
    }
    if (slurm) {
        source.live.emplace();
        auto target = slurmTargetFromArgs(*slurm, args);
        if (!target) return target.error();
        source.live->slurm = std::move(*target);
        if (const std::string* poll = args.value("poll")) {
            auto seconds = parseSecondsValue("--poll", *poll);
            if (!seconds) return seconds.error();
            if (*seconds < 0.1) return Error{"--poll: at least 0.1 s"};
            source.live->slurmPoll = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
        }
    }
    if (const std::string* classes = args.value("gpu-classes")) {
        if (splitList(*classes).empty()) return Error{"--gpu-classes needs at least one DeviceClass name"};
        source.gpuClasses = GpuDeviceClasses::fromList(*classes);
    }
    if (const std::string* topology = args.value("slurm-topology"); topology && !slurm) {
        if (topology->empty()) return Error{"--slurm-topology needs a file"};
        source.slurmTopologyFile = *topology;
    }
    for (const char* flag : {"slurm-token-file", "slurm-user", "slurm-api", "slurm-conf", "poll"})
        if (!slurm && args.value(flag)) return Error{"--" + std::string(flag) + " only applies to --slurm"};
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
    if (connection) return connection->describe(forPeople);
    return file == "-" ? std::string("stdin") : file;
}

Result<SlurmTarget> slurmTargetFromArgs(const std::string& argument, const ParsedArgs& args) {
    auto target = SlurmTarget::fromArgument(argument);
    if (!target) return target.error();
    const bool rest = target->kind == SlurmTarget::Kind::Rest;
    const auto take = [&](const char* flag, std::string& into, bool restOnly) -> Status {
        const std::string* value = args.value(flag);
        if (!value) return {};
        if (value->empty()) return Error{"--" + std::string(flag) + " needs a value"};
        if (restOnly && !rest)
            return Error{"--" + std::string(flag) + " applies to slurmrestd (--slurm URL), not the CLI"};
        if (!restOnly && rest) return Error{"--" + std::string(flag) + " applies to the Slurm CLI (--slurm cli)"};
        into = *value;
        return {};
    };
    for (Status s : {take("slurm-token-file", target->tokenFile, true), take("slurm-user", target->userName, true),
                     take("slurm-api", target->apiVersion, true), take("slurm-conf", target->slurmConf, false)})
        if (!s) return s.error();
    if (const std::string* topology = args.value("slurm-topology")) target->topologyFile = *topology;
    // With Slurm, --topology names one of topology.yaml's topologies (as a partition's Topology= would).
    if (const std::string* name = args.value("topology")) {
        if (target->topologyFile.empty())
            return Error{"--topology with --slurm picks a topology of --slurm-topology's topology.yaml"};
        target->topologyName = *name;
    }
    return target;
}

std::vector<FlagSpec> clusterSourceFlags() {
    std::string demos;
    for (const std::string& name : demoClusterNames()) demos += (demos.empty() ? "" : ", ") + name;
    std::vector<FlagSpec> flags = {
        {"demo", 0, "NAME", "embedded demo cluster: " + demos + " (N nodes, up to 65536)"},
        {"filename", 'f', "FILE",
         "snapshot: a Kubernetes List as `kubectl get nodes,pods -A -o yaml|json`\nprints it; - reads stdin"},
    };
    const std::vector<FlagSpec> live = liveClusterFlags();
    flags.insert(flags.end(), live.begin(), live.end());
    flags.push_back({"levels", 0, "KEYS", "hierarchy from these node-label keys, top level first, comma-separated"});
    flags.push_back({"topology", 0, "NAME", "hierarchy from this Topology object in the snapshot (Kueue or KAI)"});
    flags.push_back({"gpu-classes", 0, "NAMES",
                     "DRA DeviceClasses whose devices count as GPUs, comma-separated\n(default: gpu.nvidia.com)"});
    return flags;
}

FlagSpec gpuResourcesFlag() {
    return {"gpu-resources", 0, "NAMES",
            "resources that count as GPUs, comma-separated; a trailing * matches a\nprefix (default: nvidia.com/gpu)"};
}

std::vector<FlagSpec> liveClusterFlags() {
    return {
        {"context", 0, "NAME", "a live cluster: this kubeconfig context (kubectl's rules for finding the\nkubeconfig)"},
        {"kubeconfig", 0, "FILE", "a live cluster from this kubeconfig only (its current-context unless\n--context)"},
        {"in-cluster", 0, "", "a live cluster: this pod's service account"},
        {"slurm", 0, "URL|cli",
         "a live Slurm cluster: slurmrestd (http://host:6820, https://...,\nunix:/path.sock) or this machine's Slurm "
         "commands (cli)"},
        {"slurm-token-file", 0, "FILE", "slurmrestd: the JWT (scontrol token) in this file (default $SLURM_JWT)"},
        {"slurm-user", 0, "NAME", "slurmrestd: X-SLURM-USER-NAME (default: the token's user)"},
        {"slurm-api", 0, "VERSION", "slurmrestd: the REST API version, e.g. v0.0.38 (default: the newest\noffered)"},
        {"slurm-conf", 0, "FILE", "Slurm CLI: SLURM_CONF for the commands"},
        {"slurm-topology", 0, "FILE",
         "topology.conf or topology.yaml (slurmrestd does not serve the topology;\nthe CLI asks scontrol show topology "
         "without it)"},
        {"poll", 0, "SECONDS", "Slurm: how often to poll (default 5)"},
        {"sync-timeout", 0, "SECONDS", "how long to wait for a live cluster to be listed (default 60)"},
    };
}

Result<HierarchyChoice> hierarchyChoiceFromArgs(const ParsedArgs& args) {
    HierarchyChoice choice;
    if (const std::string* levels = args.value("levels")) {
        choice.levelKeys = splitList(*levels);
        if (choice.levelKeys.empty()) return Error{"--levels needs at least one node-label key"};
    }
    if (const std::string* topology = args.value("topology"); topology && !args.value("slurm")) {
        if (!choice.levelKeys.empty()) return Error{"use either --levels or --topology, not both"};
        if (topology->empty()) return Error{"--topology needs a name"};
        choice.topologyName = *topology;
    }
    if (const std::string* gpus = args.value("gpu-resources")) {
        if (splitList(*gpus).empty()) return Error{"--gpu-resources needs at least one resource name"};
        choice.gpus = GpuResources::fromList(*gpus);
    }
    return choice;
}

Result<ClusterArgs> ClusterArgs::fromArgs(const ParsedArgs& args, std::string_view command) {
    if (!args.positionals().empty())
        return Error{"unexpected argument \"" + args.positionals().front() + "\" (" + std::string(command) +
                     " takes only flags)"};
    auto source = ClusterSource::fromArgs(args);
    if (!source) return source.error();
    auto hierarchy = hierarchyChoiceFromArgs(args);
    if (!hierarchy) return hierarchy.error();
    return ClusterArgs{std::move(*source), std::move(*hierarchy)};
}

namespace {

Result<std::unique_ptr<LoadedCluster>> loadSource(const ClusterSource& source) {
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
        Status synced = (*live)->waitForSync(source.syncTimeout,
                                             [&](ClusterEvent&& event) { (void)state.apply(std::move(event)); });
        if (!synced) return Error{(*live)->errorPrefix() + ": " + synced.error().message};
        const LiveStatus status = (*live)->status();
        std::vector<std::string> warnings = resourceProblems(status);
        warnings.insert(warnings.end(), status.notes.begin(), status.notes.end());
        printWarnings(warnings);
        if (!status.serverVersion.empty() && source.live->slurm) {
            loaded->slurmVersion = status.serverVersion;
            loaded->slurmVersionOrigin = "the version " + status.serverVersionSource + " reports";
        }
        loaded->live = std::move(*live);
        return loaded;
    }
    auto snapshot = readInput(source.file);
    if (!snapshot) return snapshot.error();
    printWarnings(snapshot->warnings);
    if (!snapshot->slurmVersion.empty()) {
        loaded->slurmVersion = std::move(snapshot->slurmVersion);
        loaded->slurmVersionOrigin = "recorded in the snapshot";
    }
    std::move(*snapshot).applyTo(loaded->state);
    return loaded;
}

} // namespace

Result<std::unique_ptr<LoadedCluster>> loadCluster(const ClusterSource& source) {
    auto loaded = loadSource(source);
    if (!loaded) return loaded.error();
    if (source.gpuClasses) (void)(*loaded)->state.setGpuDeviceClasses(*source.gpuClasses);
    printWarnings(draWarnings((*loaded)->state));
    if (!source.slurmTopologyFile.empty()) {
        std::vector<std::string> warnings;
        if (Status added = addSlurmTopologyFile(source.slurmTopologyFile, (*loaded)->state, warnings); !added)
            return added.error();
        printWarnings(warnings);
    }
    return loaded;
}

int reportLoadError(const ClusterSource& source, const Error& error) {
    return source.live ? runtimeError(error.message) : usageError(error.message);
}

std::variant<IndexedCluster, int> loadIndexedCluster(const ClusterSource& source, const HierarchyChoice& hierarchy) {
    auto cluster = loadCluster(source);
    if (!cluster) return reportLoadError(source, cluster.error());
    if ((*cluster)->live) (*cluster)->live->stop();
    auto topology = (*cluster)->resolve(hierarchy);
    if (!topology) return usageError(topology.error().message);
    IndexedCluster out;
    out.index = TopologyIndex::build((*cluster)->state, std::move(*topology), hierarchy.gpus);
    out.loaded = std::move(*cluster);
    return out;
}

Result<ChangePlan> readPlanArgument(const std::string& path) {
    if (path != "-") return readChangePlanFile(path);
    auto text = readAll(stdin);
    if (!text) return text.error();
    return readChangePlan(*text, "stdin");
}

} // namespace topodeck::cli
