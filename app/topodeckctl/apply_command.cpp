#include "apply_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_journal.h"
#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_apply.h"
#include "core/changes/plan_preview.h"
#include "core/changes/topology_diff.h"
#include "core/live/live_status.h"
#include "core/text/text_file.h"
#include "core/text/text_format.h"
#include "net/label_patch_sender.h"
#include "usecases/apply_change.h"
#include "usecases/change_preview.h"

#include <cstdio>
#include <filesystem>
#include <variant>

namespace topodeck::cli {
namespace {

// What apply and undo share: where to write, and how.
struct WriteSettings {
    ClusterSource source;
    HierarchyChoice hierarchy;
    std::string journal; // where the journal goes
    KubePatchOptions patch;
    std::size_t batchSize = 200;
};

std::vector<FlagSpec> writeFlags(std::string_view journalDefault) {
    std::vector<FlagSpec> flags = liveClusterFlags();
    // Apply writes Kubernetes node labels only: the Slurm flags do not belong here.
    std::erase_if(flags, [](const FlagSpec& flag) { return flag.name.starts_with("slurm") || flag.name == "poll"; });
    flags.push_back({"journal", 0, "FILE", "where the journal goes (default: " + std::string(journalDefault) + ")"});
    flags.push_back({"field-manager", 0, "NAME", "the field manager the server records (default: topodeck)"});
    flags.push_back({"batch-size", 0, "N", "nodes per batch; a batch with a refusal is the last (default: 200)"});
    flags.push_back({"parallel", 0, "N", "requests at once (default: 8)"});
    flags.push_back({"levels", 0, "KEYS", "hierarchy from these node-label keys, top level first, comma-separated"});
    flags.push_back({"topology", 0, "NAME", "hierarchy from this Topology object (Kueue or KAI)"});
    return flags;
}

Result<std::size_t> positiveCount(const ParsedArgs& args, const std::string& flag, std::size_t fallback,
                                  std::size_t most) {
    const std::string* text = args.value(flag);
    if (!text) return fallback;
    std::size_t value = 0;
    for (char c : *text) {
        if (c < '0' || c > '9' || value > most)
            return Error{"--" + flag + ": expected a whole number, not \"" + *text + '"'};
        value = value * 10 + std::size_t(c - '0');
    }
    if (text->empty() || value == 0 || value > most)
        return Error{"--" + flag + ": expected 1 to " + std::to_string(most) + ", not \"" + *text + '"'};
    return value;
}

// "move.yaml" -> "move<suffix>"; beside the file it names.
std::string besideWithSuffix(const std::string& path, std::string_view suffix) {
    std::string stem = path;
    for (std::string_view extension : {".yaml", ".yml"})
        if (stem.ends_with(extension)) {
            stem.resize(stem.size() - extension.size());
            break;
        }
    return stem + std::string(suffix);
}

Result<WriteSettings> writeSettingsFrom(const ParsedArgs& args, const std::string& defaultJournal) {
    WriteSettings s;
    const bool live = args.value("context") || args.value("kubeconfig") || args.has("in-cluster");
    if (!live) return Error{"name the cluster to write to: --context NAME, --kubeconfig FILE or --in-cluster"};
    auto source = ClusterSource::fromArgs(args, "snapshot"); // -f is the plan; apply takes no snapshot
    if (!source) return source.error();
    s.source = std::move(*source);
    auto hierarchy = hierarchyChoiceFromArgs(args);
    if (!hierarchy) return hierarchy.error();
    s.hierarchy = std::move(*hierarchy);
    s.journal = args.value("journal") ? *args.value("journal") : defaultJournal;
    if (s.journal.empty()) return Error{"--journal needs a file name"};
    if (const std::string* manager = args.value("field-manager")) {
        // It goes into a query string, and managedFields shows it to everyone: a plain name.
        const bool plain =
            !manager->empty() && manager->size() <= 128 &&
            manager->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
                std::string::npos;
        if (!plain) return Error{"--field-manager: letters, digits, '-', '_' and '.', at most 128"};
        s.patch.fieldManager = *manager;
    }
    auto batch = positiveCount(args, "batch-size", s.batchSize, 100'000);
    if (!batch) return batch.error();
    s.batchSize = *batch;
    auto parallel = positiveCount(args, "parallel", std::size_t(s.patch.parallel), 64);
    if (!parallel) return parallel.error();
    s.patch.parallel = int(*parallel);
    return s;
}

std::string changesOnNodes(const ChangePlan& plan) {
    const std::string objects = plural(plan.objectChanges.size(), "object change", "object changes");
    if (plan.labelChanges.empty() && !plan.objectChanges.empty()) return objects;
    std::string out = plural(plan.labelChanges.size(), "label change", "label changes") + " on " +
                      plural(nodePatches(plan).size(), "node", "nodes");
    return plan.objectChanges.empty() ? out : out + " and " + objects;
}

// Loads the cluster, refuses a plan the cluster has drifted from, then dry-runs and applies it,
// keeping the journal up to date after every batch. `preview` also shows the plan and its
// topology diff first (undo does: its plan was never reviewed as a file).
int applyOnCluster(ChangePlan plan, const WriteSettings& settings, bool dryRunOnly, bool preview) {
    if (!dryRunOnly && std::filesystem::exists(settings.journal))
        return usageError("journal " + settings.journal +
                          " exists already (the record of an earlier apply, which undo needs): give --journal FILE");
    auto cluster = loadIndexedCluster(settings.source, settings.hierarchy);
    if (const int* exitCode = std::get_if<int>(&cluster)) return *exitCode;
    const LoadedCluster& loaded = *std::get<IndexedCluster>(cluster).loaded;
    const std::string where = loaded.live->describe(true);
    const ApplyCheck check = checkApply(loaded.state, plan);
    if (preview) {
        PreviewExtras extras;
        extras.text.colour = stdoutIsTerminal() && !noColorRequested();
        writeStdout(previewChangePlan(loaded.state, std::get<IndexedCluster>(cluster).index, plan, extras).text + "\n");
    }
    if (!check.drift.empty()) {
        std::fputs(check.text(where).c_str(), stderr);
        return kExitFailure;
    }
    if (plan.empty()) {
        writeStdout("Nothing to change on " + where + ".\n");
        return kExitOk;
    }
    if (!check.passed()) {
        std::fputs(check.text(where).c_str(), stderr);
        return kExitFailure;
    }
    // A plan made from a source without versions (a demo, an exported file) is guarded by the
    // versions read now, where the objects still say what the plan found (drift is empty).
    plan = planToSend(loaded.state, std::move(plan));
    const std::shared_ptr<KubeCredentials> credentials = kubeCredentials(loaded.live->kubeConnection());
    ApplyRun run;
    run.target = where;
    run.fieldManager = settings.patch.fieldManager;
    run.journalFile = settings.journal;
    run.batchSize = settings.batchSize;
    run.dryRunOnly = dryRunOnly;
    run.sendPatches = kubePatchSender(credentials, settings.patch);
    run.sendObject = kubeObjectSender(credentials, settings.patch);
    auto applied = runApply(plan, run);
    if (!applied) return runtimeError(applied.error().message);
    ApplyResult& result = applied->result;
    const std::string& journalProblem = applied->journalProblem;
    const std::vector<std::pair<std::string, std::string>> refusals = serverRefusals(plan, result);

    if (result.stage == ApplyResult::Stage::DryRunRefused) { // nothing was applied: no journal
        const std::size_t nodes = nodePatches(plan).size();
        const std::string objects = plural(plan.objectChanges.size(), "object", "objects");
        const std::string of = nodes == 0                   ? objects
                               : plan.objectChanges.empty() ? plural(nodes, "node", "nodes")
                                                            : plural(nodes, "node", "nodes") + " and " + objects;
        std::fputs(("server dry run on " + where + ": refused " + std::to_string(refusals.size()) + " of " + of +
                    "; nothing was applied:\n" + refusalLines(refusals))
                       .c_str(),
                   stderr);
        return kExitFailure;
    }
    std::string text = "server dry run on " + where + ": accepted " + changesOnNodes(plan) + "\n";
    if (result.stage == ApplyResult::Stage::DryRunPassed) {
        writeStdout(text + "Nothing was changed (--dry-run=server).\n");
        return kExitOk;
    }
    const std::size_t appliedChanges = result.journal.count(ChangeOutcome::Applied);
    const std::string undoHint =
        "journal: " + settings.journal + " (undo: topodeckctl undo " + settings.journal + ")\n";
    if (result.stage == ApplyResult::Stage::Applied && journalProblem.empty()) {
        writeStdout(text + "applied " + changesOnNodes(plan) + " in " + plural(result.batchesSent, "batch", "batches") +
                    ", field manager " + settings.patch.fieldManager + "\n" + undoHint);
        return kExitOk;
    }
    writeStdout(text);
    std::string failure = "stopped after " + plural(result.batchesSent, "batch", "batches");
    if (!journalProblem.empty()) failure += ": the journal could not be written (" + journalProblem + ")";
    failure += "; " + std::to_string(appliedChanges) + " of " +
               std::to_string(plan.labelChanges.size() + plan.objectChanges.size()) + " changes applied, " +
               std::to_string(result.journal.count(ChangeOutcome::NotAttempted)) +
               " not attempted; nothing was overwritten.\n" + refusalLines(refusals);
    std::fputs(failure.c_str(), stderr);
    if (journalProblem.empty()) writeStdout(undoHint);
    return kExitFailure;
}

} // namespace

const CommandSpec& applyCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "apply";
        s.summary = "Apply a change plan to a Kubernetes cluster, with a journal to undo it";
        s.description =
            "Applies a change plan (topodeckctl label, relabel or objects -o PLAN) to the cluster: node labels,\n"
            "then HyperNodes, Kueue Topologies and ResourceFlavors, KAI Topologies. It first reads the cluster\n"
            "and refuses the plan if any label or object it changes no longer holds what the plan found, or if\n"
            "an object breaks a rule of its CRD the server cannot check (Kueue's immutable levels, ...).\n"
            "Then every node's patch goes to the server as a dry run (dryRun=All: the server checks\n"
            "permissions and values and changes nothing), and only if all pass are they sent for real, in\n"
            "batches. Each patch tests the labels it changes, so an edit made meanwhile is refused, never\n"
            "overwritten; a batch with any refusal is the last. Objects go one by one, each guarded by its\n"
            "resourceVersion (a create by the object not existing). The journal records what each label was and\n"
            "became, after every batch; topodeckctl undo JOURNAL puts it back. Exit codes: 0 applied (or the\n"
            "dry run passed), 1 refused or stopped (what was done is in the journal), 2 bad input.";
        s.usage = "topodeckctl apply -f PLAN (--context NAME | --kubeconfig FILE | --in-cluster) [--dry-run=server]";
        s.examples = "  topodeckctl apply -f move.yaml --context prod --dry-run=server\n"
                     "  topodeckctl apply -f move.yaml --context prod            # journal: move.journal.yaml\n"
                     "  topodeckctl undo move.journal.yaml --context prod --yes\n";
        s.flags = {
            {"filename", 'f', "PLAN", "the change plan; - reads stdin (then give --journal)"},
            {"dry-run", 0, "server", "only the server-side dry run: show what the server would accept"},
        };
        const std::vector<FlagSpec> write = writeFlags("PLAN.journal.yaml, beside the plan");
        s.flags.insert(s.flags.end(), write.begin(), write.end());
        return s;
    }();
    return spec;
}

int runApplyCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(applyCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    if (!flags.positionals().empty())
        return usageError("unexpected argument \"" + flags.positionals().front() + "\" (the plan goes after -f)");
    const std::string* planFile = flags.value("filename");
    if (!planFile || planFile->empty())
        return usageError("apply needs -f PLAN (a file written by topodeckctl label -o)");
    bool dryRunOnly = false;
    if (const std::string* dryRun = flags.value("dry-run")) {
        if (*dryRun != "server")
            return usageError("--dry-run: only server (the API server checks every patch and changes nothing)");
        dryRunOnly = true;
    }
    if (*planFile == "-" && !flags.value("journal") && !dryRunOnly)
        return usageError("a plan read from stdin needs --journal FILE");
    auto settings =
        writeSettingsFrom(flags, *planFile == "-" ? std::string() : besideWithSuffix(*planFile, ".journal.yaml"));
    if (!settings) return usageError(settings.error().message);
    auto plan = readPlanArgument(*planFile);
    if (!plan) return usageError(plan.error().message);
    return applyOnCluster(*plan, *settings, dryRunOnly, false);
}

const CommandSpec& undoCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "undo";
        s.summary = "Put back what an apply changed, from its journal";
        s.description =
            "Reads the journal an apply wrote and builds the reverse plan: each label it applied goes back to\n"
            "the value it had, provided it still holds the value the apply gave it (a label changed since is\n"
            "refused, never overwritten). Without --yes it only previews; with --yes it applies as apply does,\n"
            "with a journal of its own. Exit codes as apply.";
        s.usage = "topodeckctl undo JOURNAL (--context NAME | --kubeconfig FILE | --in-cluster) [--yes]";
        s.examples = "  topodeckctl undo move.journal.yaml --context prod          # preview\n"
                     "  topodeckctl undo move.journal.yaml --context prod --yes\n";
        s.flags = {{"yes", 'y', "", "apply the reverse plan (without: preview only)"}};
        const std::vector<FlagSpec> write = writeFlags("JOURNAL.undo.yaml, beside it");
        s.flags.insert(s.flags.end(), write.begin(), write.end());
        return s;
    }();
    return spec;
}

int runUndoCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(undoCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    if (flags.positionals().size() != 1) return usageError("undo takes one JOURNAL (written by topodeckctl apply)");
    const std::string& journalFile = flags.positionals().front();
    auto settings = writeSettingsFrom(flags, besideWithSuffix(journalFile, ".undo.yaml"));
    if (!settings) return usageError(settings.error().message);
    auto journal = readChangeJournalFile(journalFile);
    if (!journal) return usageError(journal.error().message);
    const ChangePlan plan = undoPlan(*journal);
    if (plan.empty()) {
        writeStdout("The journal records no applied change: nothing to undo.\n");
        return kExitOk;
    }
    if (!flags.has("yes")) {
        // The preview with the server's opinion, and how to go on.
        const int previewed = applyOnCluster(plan, *settings, true, true);
        if (previewed == kExitOk) writeStdout("Run again with --yes to apply it.\n");
        return previewed;
    }
    return applyOnCluster(plan, *settings, false, true);
}

} // namespace topodeck::cli
