// topodeckctl: the terminal side of topodeck. Each subcommand lives in its own <name>_command.cpp
// and is listed once in kCommands below.

#include "apply_command.h"
#include "cli_args.h"
#include "diff_command.h"
#include "export_command.h"
#include "gangs_command.h"
#include "label_command.h"
#include "plan_command.h"
#include "show_command.h"
#include "snapshot_command.h"
#include "terminal.h"

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::cli {
namespace {

int runVersion(std::span<const std::string> args);

struct Command {
    std::string_view name;
    std::string_view summary;
    int (*run)(std::span<const std::string> args);
};

const std::array kCommands = {
    Command{"show", "Show the topology tree with GPU occupancy per domain", runShowCommand},
    Command{"gangs", "List running gangs and the network boundaries each crosses", runGangsCommand},
    Command{"plan", "Dry-run a gang under Kueue, Volcano, KAI or Slurm rules", runPlanCommand},
    Command{"label", "Plan node-label changes (kubectl label's syntax) and preview them", runLabelCommand},
    Command{"relabel", "Plan labels that say where each node sits, from any hierarchy", runRelabelCommand},
    Command{"objects", "Plan HyperNodes or a Kueue / KAI Topology from a hierarchy", runObjectsCommand},
    Command{"slinky", "Plan Slinky's topology annotations on every node from a hierarchy", runSlinkyCommand},
    Command{"diff", "Preview a change plan against the cluster as it is now", runDiffCommand},
    Command{"apply", "Apply a change plan to a Kubernetes cluster, with a journal to undo it", runApplyCommand},
    Command{"undo", "Put back what an apply changed, from its journal", runUndoCommand},
    Command{"export", "Write the hierarchy as scheduler manifests or Slurm files, for review", runExportCommand},
    Command{"snapshot", "Save a live cluster to a file for offline what-if planning", runSnapshotCommand},
    Command{"version", "Print the topodeckctl version", runVersion},
};

std::string mainHelp() {
    std::string out = "topodeckctl shows GPU cluster topology (which racks, blocks and NVLink domains hold free\n"
                      "GPUs) and dry-runs gang placements under Kueue, Volcano, KAI and Slurm rules, on a live\n"
                      "Kubernetes cluster, a snapshot file (as kubectl prints it) or an embedded demo cluster.\n\n"
                      "Usage:\n  topodeckctl <command> [flags]\n\nCommands:\n";
    for (const Command& command : kCommands) {
        out += "  ";
        out += command.name;
        out.append(10 - command.name.size(), ' ');
        out += command.summary;
        out += '\n';
    }
    out += "\nRun 'topodeckctl <command> --help' for a command's flags.\n";
    return out;
}

int runVersion(std::span<const std::string> args) {
    for (const std::string& arg : args) {
        if (arg == "-h" || arg == "--help") {
            writeStdout("Print the topodeckctl version.\n\nUsage:\n  topodeckctl version\n");
            return kExitOk;
        }
        return usageError("version takes no arguments, got \"" + arg + "\"");
    }
    writeStdout("topodeckctl " TOPODECK_VERSION "\n");
    return kExitOk;
}

} // namespace
} // namespace topodeck::cli

int main(int argc, char** argv) {
    using namespace topodeck::cli;
    // Diagnostics on stderr, and only when asked for (SPDLOG_LEVEL=info, debug, ...): stdout is
    // the report, and may be JSON.
    spdlog::set_default_logger(spdlog::stderr_color_mt("topodeckctl"));
    spdlog::set_level(spdlog::level::err);
    spdlog::cfg::load_env_levels();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fputs(mainHelp().c_str(), stderr);
        return kExitUsage;
    }
    const std::string& first = args.front();
    if (first == "-h" || first == "--help" || first == "help") {
        if (first == "help" && args.size() > 1) {
            // `topodeckctl help show` is `topodeckctl show --help`.
            const std::vector<std::string> helpArgs = {"--help"};
            for (const Command& command : kCommands)
                if (command.name == args[1]) return command.run(helpArgs);
            return usageError("unknown command \"" + args[1] + "\" (see 'topodeckctl --help')");
        }
        writeStdout(mainHelp());
        return kExitOk;
    }
    if (first == "--version") return runVersion({});
    for (const Command& command : kCommands)
        if (command.name == first) return command.run(std::span(args).subspan(1));
    if (first.starts_with('-'))
        return usageError("unknown flag " + first + " (flags follow the command; see 'topodeckctl --help')");
    return usageError("unknown command \"" + first + "\" (see 'topodeckctl --help')");
}
