#include "snapshot_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/formats/snapshot_writer.h"
#include "core/slurm/slurm_snapshot.h"
#include "core/text/text_file.h"
#include "core/text/text_format.h"

#include <cstdio>
#include <variant>

namespace topodeck::cli {
namespace {

std::string count(std::size_t n, std::string_view one, std::string_view many) {
    return groupThousands(static_cast<std::int64_t>(n)) + ' ' + std::string(n == 1 ? one : many);
}


} // namespace

const CommandSpec& snapshotCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "snapshot";
        s.summary = "Save a live cluster to a file for offline what-if planning";
        s.description =
            "Lists a live cluster and writes what topodeck reads of it (nodes, the pods that hold resources,\n"
            "Kueue and KAI Topologies, Kueue ResourceFlavors, Volcano HyperNodes, DRA objects, NVIDIA\n"
            "ComputeDomains) as one Kubernetes List in JSON, the format `-f` reads back: show, plan and the\n"
            "GUI then work on the frozen cluster.\n"
            "The file is written whole or not at all.\n"
            "A Slurm cluster (--slurm) is written as Slurm's own files instead, in the directory -o names:\n"
            "nodes.json and jobs.json (sinfo/squeue --json or slurmrestd's replies, as received),\n"
            "topology.conf, and slurm-version.txt (the version Slurm reports, which plan's Slurm rules\n"
            "follow); -f DIR reads that directory back.";
        s.usage = "topodeckctl snapshot (--context NAME | --kubeconfig FILE | --in-cluster | --demo NAME | -f FILE)\n"
                  "                      -o FILE";
        s.examples = "  topodeckctl snapshot --context prod -o prod-$(date +%F).json\n"
                     "  topodeckctl snapshot --slurm cli -o slurm-$(date +%F)/\n"
                     "  topodeckctl plan -f prod-2026-12-01.json --pods 64 --request nvidia.com/gpu=8 --required rack\n";
        s.flags = liveClusterFlags();
        s.flags.push_back({"demo", 0, "NAME", "an embedded demo cluster"});
        s.flags.push_back({"filename", 'f', "FILE", "a snapshot file (re-written in topodeck's form)"});
        s.flags.push_back({"output", 'o', "FILE", "where to write the snapshot; - for stdout"});
        return s;
    }();
    return spec;
}

int runSnapshotCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(snapshotCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    if (!flags.positionals().empty())
        return usageError("unexpected argument \"" + flags.positionals().front() + "\" (snapshot takes only flags)");
    const std::string* output = flags.value("output");
    if (!output || output->empty()) return usageError("snapshot needs -o FILE (or -o - for stdout)");
    auto source = ClusterSource::fromArgs(flags);
    if (!source) return usageError(source.error().message);
    auto loaded = loadCluster(*source);
    if (!loaded) return reportLoadError(*source, loaded.error());
    if ((*loaded)->live) (*loaded)->live->stop();

    const ClusterState& state = (*loaded)->state;
    const std::string from = source->describe((*loaded)->demo, true, (*loaded)->live.get());
    if (const LiveConnection* live = (*loaded)->live.get(); live && live->slurmSource()) {
        if (*output == "-") return usageError("a Slurm snapshot is a directory of files: -o DIR, not -o -");
        const SlurmSource::Replies replies = live->slurmSource()->replies();
        // Synced without node JSON: the nodes came from scontrol, sinfo having no --json.
        if (!replies.nodes) return runtimeError(from + ": sinfo here has no --json, and a Slurm snapshot holds sinfo's JSON");
        const std::string noJobs = R"({"jobs":[]})";
        const std::string& version = (*loaded)->slurmVersion;
        Status written = writeSlurmFileSet(*output, *replies.nodes, replies.jobs ? *replies.jobs : noJobs,
                                           replies.topology.get(), version);
        if (!written) return runtimeError(written.error().message);
        std::fprintf(stderr, "%s: %s, %s%s%s written to %s\n", from.c_str(),
                     count(state.presentNodeCount(), "node", "nodes").c_str(),
                     count(state.podCount(), "job allocation", "job allocations").c_str(),
                     replies.topology ? ", topology.conf" : "",
                     version.empty() ? "" : (", slurm-version.txt (" + version + ")").c_str(), output->c_str());
        return kExitOk;
    }
    const std::string json = writeSnapshotJson(state);
    if (*output == "-") {
        writeStdout(json);
    } else if (Status written = writeFileAtomically(*output, json); !written) {
        return runtimeError(written.error().message);
    }
    const std::string summary = count(state.presentNodeCount(), "node", "nodes") + ", " +
                                count(state.podCount(), "pod", "pods") + ", " +
                                count(state.topologies().size(), "Topology", "Topologies") + ", " +
                                count(state.resourceFlavors().size(), "ResourceFlavor", "ResourceFlavors") + ", " +
                                count(state.hyperNodes().size(), "HyperNode", "HyperNodes") +
                                (state.computeDomains().empty()
                                     ? std::string()
                                     : ", " + count(state.computeDomains().size(), "ComputeDomain", "ComputeDomains"));
    std::fprintf(stderr, "%s: %s%s\n", from.c_str(), summary.c_str(),
                 *output == "-" ? "" : (" written to " + *output).c_str());
    return kExitOk;
}

} // namespace topodeck::cli
