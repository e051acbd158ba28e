#include "net/slurm_cli.h"

#include "net/child_process.h"

namespace topodeck {

namespace {

using State = ResourceHealth::State;

bool mentionsController(const std::string& text) {
    return text.find("Unable to contact slurm controller") != std::string::npos ||
           text.find("Socket timed out") != std::string::npos || text.find("Connection refused") != std::string::npos;
}

} // namespace

SlurmCli::SlurmCli(const SlurmTarget& target, std::chrono::milliseconds timeout, const std::atomic<bool>* cancelled,
                   std::size_t maxOutput)
    : m_target(target), m_timeout(timeout), m_cancelled(cancelled), m_maxOutput(maxOutput) {}

std::string SlurmCli::describe() const {
    return m_target.describe();
}

ChildProcessRequest SlurmCli::commandRequest(std::vector<std::string> argv) const {
    ChildProcessRequest request;
    request.argv = std::move(argv);
    if (!m_target.slurmConf.empty()) request.setEnvironment.emplace_back("SLURM_CONF", m_target.slurmConf);
    request.timeout = m_timeout;
    request.cancelled = m_cancelled;
    request.maxStdout = m_maxOutput;
    request.limitVariable = kMaxSlurmReplyVariable;
    return request;
}

SlurmFetch SlurmCli::run(std::vector<std::string> argv) {
    const std::string command = argv.front() + (argv.size() > 1 ? " " + argv[1] : std::string());
    const ChildProcessRequest request = commandRequest(std::move(argv));
    ChildProcessResult ran = runChildProcess(request);
    m_lastTooLarge = ran.outcome == ChildProcessResult::Outcome::OutputTooLarge;
    if (ran.succeeded()) {
        SlurmFetch fetch;
        fetch.outcome = SlurmFetch::Outcome::Fresh;
        fetch.body = std::move(ran.out);
        // `scontrol show topology` says it could not reach slurmctld on stderr and still exits 0.
        if (mentionsController(ran.err))
            return SlurmFetch::failed(State::Unreachable, command + ": cannot reach slurmctld" + ran.stderrTail(2));
        return fetch;
    }
    if (ran.outcome == ChildProcessResult::Outcome::NotFound)
        return SlurmFetch::failed(State::Unreachable, request.argv.front() +
                                                          " not found: the Slurm CLI source needs the Slurm client "
                                                          "commands (Debian: slurm-client) on PATH");
    const State state = mentionsController(ran.err) || ran.outcome == ChildProcessResult::Outcome::TimedOut
                            ? State::Unreachable
                            : State::Failing;
    return SlurmFetch::failed(state, command + " " + ran.describe(2));
}

SlurmFetch SlurmCli::nodes() {
    SlurmFetch fetch = run({"sinfo", "--json"});
    // Too much output is no sign of a Slurm without --json: scontrol would print as much.
    if (fetch.outcome != SlurmFetch::Outcome::Failed || fetch.failure == State::Unreachable || m_lastTooLarge)
        return fetch;
    SlurmFetch text = run({"scontrol", "-o", "-d", "show", "nodes"});
    if (text.outcome != SlurmFetch::Outcome::Fresh) return fetch; // sinfo's failure says more
    text.format = SlurmFetch::Format::ScontrolNodes;
    return text;
}

SlurmFetch SlurmCli::squeueJson() {
    SlurmFetch fetch = run({"squeue", "--json", "--all"});
    // An squeue without --json is a fact about this Slurm, not a failure to retry.
    if (fetch.outcome == SlurmFetch::Outcome::Failed && fetch.failure != State::Unreachable &&
        fetch.message.find("json") != std::string::npos)
        return SlurmFetch::failed(State::NotInstalled, "squeue has no --json here (" + fetch.message +
                                                           "): jobs are not shown; occupancy comes from the nodes' own counters");
    return fetch;
}

SlurmFetch SlurmCli::showTopology() {
    return run({"scontrol", "show", "topology"});
}

Result<SlurmCli::Version> SlurmCli::version() {
    // slurmctld's release first: the rules that place jobs are slurmctld's, not the client's.
    const SlurmFetch config = run({"scontrol", "show", "config"});
    std::string failures;
    if (config.outcome == SlurmFetch::Outcome::Fresh) {
        Result<std::string> controller = parseScontrolConfigVersion(config.body);
        if (controller) return Version{std::move(*controller), "scontrol show config", true, false};
        failures = controller.error().message;
    } else {
        failures = config.message;
    }
    const bool unreachable = config.outcome == SlurmFetch::Outcome::Failed && config.failure == State::Unreachable;
    for (std::vector<std::string> argv :
         {std::vector<std::string>{"sinfo", "--version"}, std::vector<std::string>{"scontrol", "version"}}) {
        std::string command = argv[0] + ' ' + argv[1];
        SlurmFetch fetch = run(std::move(argv));
        std::string_view line = fetch.body;
        const std::size_t start = line.find_first_not_of(" \t\r\n");
        line = start == std::string_view::npos ? std::string_view() : line.substr(start);
        line = line.substr(0, line.find('\n'));
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.remove_suffix(1);
        if (fetch.outcome == SlurmFetch::Outcome::Fresh && !line.empty())
            return Version{std::string(line), std::move(command), false, unreachable};
        failures += (failures.empty() ? "" : "; ") +
                    (fetch.outcome == SlurmFetch::Outcome::Fresh ? command + " printed nothing" : fetch.message);
    }
    return Error{std::move(failures)};
}

Result<SbatchTestOnly> SlurmCli::testOnly(const std::vector<std::string>& sbatchArguments, bool wrap) {
    std::vector<std::string> argv = {"sbatch", "--test-only"};
    argv.insert(argv.end(), sbatchArguments.begin(), sbatchArguments.end());
    if (wrap) argv.insert(argv.end(), {"--wrap", "true"});
    const ChildProcessResult ran = runChildProcess(commandRequest(std::move(argv)));
    if (ran.outcome != ChildProcessResult::Outcome::Exited) return Error{"sbatch --test-only " + ran.describe(2)};
    // Exit status 1 with "allocation failure: ..." is an answer too.
    return parseSbatchTestOnly(ran.err);
}

} // namespace topodeck
