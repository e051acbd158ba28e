#include "show_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "core/exports/show_report.h"
#include "core/formats/snapshot_reader.h"
#include "core/model/cluster_state.h"
#include "core/model/gpu_resources.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>
#include <variant>

namespace topodeck::cli {
namespace {

struct ShowSettings {
    ClusterSource source;
    HierarchyChoice hierarchy;
    bool json = false;
    bool watch = false;
    double interval = 1.0;
    int ticks = 0; // redraws before stopping; 0 = until interrupted
    bool terminal = false;
    ShowOptions render;
};

// The cluster being shown and the index over it.
struct Shown {
    std::unique_ptr<LoadedCluster> cluster;
    TopologyIndex index;
};

Result<ShowSettings> settingsFrom(const ParsedArgs& args) {
    ShowSettings s;
    auto common = ClusterArgs::fromArgs(args, "show");
    if (!common) return common.error();
    s.source = std::move(common->source);
    s.hierarchy = std::move(common->hierarchy);

    if (const std::string* depth = args.value("depth")) {
        auto value = parseIntValue("--depth", *depth, 0, std::numeric_limits<int>::max());
        if (!value) return value.error();
        s.render.depth = *value;
    }
    auto json = jsonOutputWanted(args);
    if (!json) return json.error();
    s.json = *json;
    if (const std::string* width = args.value("bar-width")) {
        auto value = parseIntValue("--bar-width", *width, 1, 200);
        if (!value) return value.error();
        s.render.barWidth = *value;
    }
    s.render.showNodes = args.has("nodes");

    if (args.has("color") && args.has("no-color")) return Error{"use either --color or --no-color, not both"};
    s.terminal = stdoutIsTerminal();
    s.render.color = args.has("color") || (!args.has("no-color") && s.terminal && !noColorRequested());

    s.watch = args.has("watch");
    if (const std::string* interval = args.value("interval")) {
        if (!s.watch) return Error{"--interval only applies with --watch"};
        auto value = parseSecondsValue("--interval", *interval);
        if (!value) return value.error();
        s.interval = *value;
    }
    if (const std::string* ticks = args.value("ticks")) {
        if (!s.watch) return Error{"--ticks only applies with --watch"};
        auto value = parseIntValue("--ticks", *ticks, 1, std::numeric_limits<int>::max());
        if (!value) return value.error();
        s.ticks = *value;
    }
    if (s.watch && s.source.file == "-") return Error{"--watch needs a file it can re-read, not stdin"};
    return s;
}

Result<TopologySpec> topologyFor(const ShowSettings& s, const Shown& shown) {
    return shown.cluster->resolve(s.hierarchy);
}

Result<std::unique_ptr<Shown>> indexCluster(const ShowSettings& s, std::unique_ptr<LoadedCluster> cluster) {
    auto shown = std::make_unique<Shown>();
    shown->cluster = std::move(cluster);
    auto spec = topologyFor(s, *shown);
    if (!spec) return spec.error();
    shown->index = TopologyIndex::build(shown->cluster->state, std::move(*spec), s.hierarchy.gpus);
    return shown;
}

Result<std::unique_ptr<Shown>> load(const ShowSettings& s) {
    auto cluster = loadCluster(s.source);
    if (!cluster) return cluster.error();
    return indexCluster(s, std::move(*cluster));
}

std::string formatSeconds(double seconds) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%gs", seconds);
    return buffer;
}

// See ShowRunner::run().
Shown* g_keptUntilExit = nullptr;

class ShowRunner {
public:
    ShowRunner(ShowSettings settings, std::unique_ptr<Shown> shown)
        : m_settings(std::move(settings)), m_shown(std::move(shown)) {}

    int run() {
        draw();
        if (!m_settings.watch) {
            m_shown->cluster->live.reset(); // stops its threads before the process ends
            // The process ends right after: let the OS reclaim a cluster's worth of objects at
            // once instead of running half a million destructors (a tenth of a big `show`).
            // A global keeps it reachable, so leak checkers know it is meant.
            g_keptUntilExit = m_shown.release();
            return kExitOk;
        }
        const auto& demo = m_shown->cluster->demo;
        if (demo) m_simulator.emplace(*demo, demo->seed);
        if (!m_settings.source.file.empty()) m_fileTime = modificationTime();
        while (m_settings.ticks == 0 || m_frames < m_settings.ticks) {
            std::this_thread::sleep_for(std::chrono::duration<double>(m_settings.interval));
            if (advance()) draw();
        }
        return kExitOk;
    }

private:
    // One watch step; true when there is something new to draw.
    bool advance() {
        if (m_simulator) {
            applyEvents(m_simulator->step(m_shown->cluster->state));
            return true;
        }
        if (LiveConnection* live = m_shown->cluster->live.get()) {
            const bool changed = applyEvents(live->takeEvents());
            const LiveStatus status = live->status();
            const bool statusChanged = describeStatus(status) != describeStatus(m_liveStatus);
            m_liveStatus = status;
            return changed || statusChanged;
        }
        // A file: re-read it when it changed, keeping the last good view if the new text is bad
        // (it may be half written).
        const auto time = modificationTime();
        if (!time || time == m_fileTime) return false;
        m_fileTime = time;
        auto reloaded = load(m_settings);
        if (!reloaded) {
            printWarning("re-reading " + m_settings.source.file + ": " + reloaded.error().message);
            return false;
        }
        m_shown = std::move(*reloaded);
        return true;
    }

    // True when there were events; the index follows them, and is rebuilt when a Topology object
    // changed the hierarchy.
    template <class Events> bool applyEvents(Events&& events) {
        bool topologyChanged = false;
        for (auto& event : events) {
            const AppliedEvent applied = m_shown->cluster->state.apply(std::move(event));
            topologyChanged = topologyChanged || mayChangeHierarchy(applied, m_shown->index.spec());
            m_shown->index.apply(m_shown->cluster->state, applied);
        }
        if (topologyChanged) rebuildIndex();
        return !events.empty();
    }

    static std::string describeStatus(const LiveStatus& status) {
        std::string text = describeLinkState(status);
        for (const std::string& problem : resourceProblems(status)) text += '\n' + problem;
        return text;
    }

    void rebuildIndex() {
        auto spec = topologyFor(m_settings, *m_shown);
        if (!spec) {
            printWarning("topology changed and cannot be resolved: " + spec.error().message);
            return;
        }
        m_shown->index = TopologyIndex::build(m_shown->cluster->state, std::move(*spec), m_settings.hierarchy.gpus);
    }

    std::optional<std::filesystem::file_time_type> modificationTime() const {
        std::error_code ec;
        const auto time = std::filesystem::last_write_time(m_settings.source.file, ec);
        if (ec) return std::nullopt;
        return time;
    }

    void draw() {
        ++m_frames;
        ShowOptions options = m_settings.render;
        const LiveConnection* live = m_shown->cluster->live.get();
        options.source = m_settings.source.describe(m_shown->cluster->demo, !m_settings.json, live);
        if (live) {
            if (m_frames == 1) m_liveStatus = live->status();
            options.live = &m_liveStatus;
        }
        if (m_settings.json) {
            writeStdout(renderShowJson(m_shown->index, m_shown->cluster->state, options));
            return;
        }
        std::string text;
        if (m_settings.watch) {
            text = "Every " + formatSeconds(m_settings.interval) + " · update " + std::to_string(m_frames);
            if (m_settings.ticks > 0) text += " of " + std::to_string(m_settings.ticks);
            if (m_settings.terminal) text += " · Ctrl-C to stop";
            text += "\n\n";
        }
        text += renderShowTable(m_shown->index, m_shown->cluster->state, options);
        if (m_settings.watch && m_settings.terminal) {
            writeStdout(redrawScreen(text, m_frames == 1));
        } else {
            if (m_settings.watch && m_frames > 1) text.insert(text.begin(), '\n');
            writeStdout(text);
        }
    }

    ShowSettings m_settings;
    std::unique_ptr<Shown> m_shown;
    std::optional<DemoSimulator> m_simulator;
    std::optional<std::filesystem::file_time_type> m_fileTime;
    LiveStatus m_liveStatus;
    int m_frames = 0;
};

} // namespace

const CommandSpec& showCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "show";
        s.summary = "Show the topology tree with GPU occupancy per domain";
        s.description = "Show the cluster's hierarchy (for example block > rack) as a tree. Per domain: GPUs used\n"
                        "and total, an occupancy bar, free GPUs, the most free GPUs on one node, and nodes not\n"
                        "ready or cordoned. GPUs on such nodes count as unavailable, never as free.\n\n"
                        "A live cluster is listed and watched through its API server (the kubeconfig as kubectl\n"
                        "reads it, exec credential plugins included); the header says whether it is synced,\n"
                        "reconnecting or stale, and what it may not read. A live Slurm cluster (--slurm) is\n"
                        "polled through slurmrestd or the Slurm commands; its switches or blocks are the levels.";
        s.usage = "topodeckctl show (--demo NAME | -f FILE | --context NAME | --kubeconfig FILE | --in-cluster |\n"
                  "                  --slurm URL|cli) [flags]";
        s.examples = "  # The embedded GB200 NVL72 demo, scalable units only\n"
                     "  topodeckctl show --demo gb200 --depth 1\n"
                     "  # A snapshot taken with kubectl, with the hierarchy read from two node labels\n"
                     "  kubectl get nodes,pods -A -o json | topodeckctl show -f - \\\n"
                     "      --levels topology.k8s.aws/network-node-layer-2,topology.k8s.aws/network-node-layer-3\n"
                     "  # Follow the demo's simulated workload\n"
                     "  topodeckctl show --demo h100 --watch\n"
                     "  # A Slurm cluster through this login node's commands, redrawn as it changes\n"
                     "  topodeckctl show --slurm cli --watch\n"
                     "  # Through slurmrestd, with the switches from topology.conf\n"
                     "  topodeckctl show --slurm http://slurmctl:6820 --slurm-token-file ~/.slurm-jwt \\\n"
                     "      --slurm-topology /etc/slurm/topology.conf\n"
                     "  # A live cluster, as kubectl reaches it, redrawn as its watches report changes\n"
                     "  topodeckctl show --context prod --watch\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(s.flags.end(), {
            {"depth", 0, "N", "show N levels below the cluster (0 = totals only; default: all)"},
            {"nodes", 0, "", "also list the nodes under the deepest domains shown"},
            {"output", 'o', "FORMAT", "table (default) or json"},
            gpuResourcesFlag(),
            {"color", 0, "", "colour even when stdout is not a terminal"},
            {"no-color", 0, "", "no colour (also when NO_COLOR is set)"},
            {"bar-width", 0, "N", "occupancy bar width in columns (default 20)"},
            {"watch", 'w', "", "redraw as the demo simulator runs, the file changes, or the live cluster\nchanges"},
            {"interval", 0, "SECONDS", "with --watch: time between updates (default 1)"},
            {"ticks", 0, "N", "with --watch: stop after N redraws"},
        });
        return s;
    }();
    return spec;
}

int runShowCommand(std::span<const std::string> args) {
    const CommandSpec& spec = showCommandSpec();
    auto parsed = parseCommandLine(spec, args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    auto settings = settingsFrom(std::get<ParsedArgs>(parsed));
    if (!settings) return usageError(settings.error().message);
    auto cluster = loadCluster(settings->source);
    if (!cluster) return reportLoadError(settings->source, cluster.error());
    auto shown = indexCluster(*settings, std::move(*cluster));
    if (!shown) return usageError(shown.error().message);
    return ShowRunner(std::move(*settings), std::move(*shown)).run();
}

} // namespace topodeck::cli
