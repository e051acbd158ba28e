#include "net/slurm_source.h"

#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_json.h"
#include "core/slurm/slurm_text.h"
#include "net/file_stamp.h"
#include "net/slurm_cli.h"
#include "net/slurm_rest_client.h"

#include <spdlog/spdlog.h>


#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

namespace topodeck {

using std::chrono::milliseconds;
using State = ResourceHealth::State;

namespace {

enum Resource : std::size_t { kNodes, kJobs, kTopology, kResources };

std::int64_t epochSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}


// The one topology of a file or of scontrol that the source follows.
Result<SlurmTopology> chooseTopology(std::vector<SlurmTopology> topologies, const std::string& name,
                                     const std::string& source) {
    if (topologies.empty()) return Error{source + ": no topology in it"};
    if (name.empty()) return std::move(topologies.front()); // the reader puts the cluster default first
    std::string names;
    for (SlurmTopology& topology : topologies) {
        if (topology.name == name) return std::move(topology);
        names += (names.empty() ? "" : ", ") + topology.name;
    }
    return Error{source + ": no topology named \"" + name + "\" (it has " + names + ")"};
}

// What one reply held, read into the mapper: how many objects, Slurm's last_update (0: not
// given) or, when it could not be read, why.
struct ReplyRead {
    std::size_t objects = 0;
    std::int64_t lastUpdate = 0;
    std::string problem;
};

} // namespace

class SlurmSource::Impl {
public:
    Impl(SlurmTarget target, SlurmSourceOptions options) : m_target(std::move(target)), m_options(options) {
        const std::pair<std::string_view, std::string_view> kinds[kResources] = {
            {"nodes", "nodes"}, {"jobs", "jobs"}, {"topology", "topology"}};
        for (const auto& [resource, title] : kinds) {
            ResourceHealth health;
            health.resource = std::string(resource);
            health.title = std::string(title);
            health.since = std::chrono::system_clock::now();
            m_health.push_back(std::move(health));
        }
        m_health[kNodes].required = true;
        if (m_target.kind == SlurmTarget::Kind::Rest)
            m_rest = std::make_unique<SlurmRestClient>(m_target, m_options.requestTimeout, m_options.limits);
        else
            m_cli = std::make_unique<SlurmCli>(m_target, m_options.requestTimeout, &m_stopping, m_options.limits.slurmReply);
    }

    ~Impl() { stop(); }

    void start(std::function<void()> notify) {
        std::lock_guard lock(m_mutex);
        if (m_thread.joinable()) return;
        m_notify = std::move(notify);
        m_stopping = false;
        m_thread = std::thread([this] { run(); });
    }

    void stop() {
        {
            std::lock_guard lock(m_mutex);
            if (!m_thread.joinable()) return;
            m_stopping = true;
        }
        m_wake.notify_all();
        if (m_rest) m_rest->cancel();
        m_thread.join();
    }

    std::vector<ClusterEvent> takeEvents() {
        std::lock_guard lock(m_mutex);
        std::vector<ClusterEvent> out;
        out.swap(m_events);
        return out;
    }

    LiveStatus status() const {
        std::lock_guard lock(m_mutex);
        LiveStatus status;
        status.origin = m_target.describe();
        status.resources = m_health;
        aggregateResourceHealth(status, m_syncedAt, m_options.staleAfter, std::chrono::system_clock::now());
        status.notes = m_notes;
        status.serverVersion = m_serverVersion;
        status.serverVersionSource = m_serverVersionSource;
        return status;
    }

    Replies replies() const {
        std::lock_guard lock(m_mutex);
        return m_replies;
    }

private:
    void run();
    bool pollOnce(std::vector<ClusterEvent>& events);
    bool refreshTopology();
    bool discoverRestVersion();
    bool pollResource(Resource resource, bool& notesDue);
    void reportFailedFetch(Resource resource, const SlurmFetch& fetch);
    bool takeReply(Resource resource, SlurmFetch& fetch, std::int64_t askedAt, bool& notesDue);
    ReplyRead readScontrolNodes(const std::string& text);
    ReplyRead readNodesJson(std::string& json, const std::string& source);
    ReplyRead readJobsJson(std::string& json, const std::string& source);
    void updateNotes();
    std::optional<SlurmFetch> readTopology();
    void readVersion();
    void setServerVersion(std::string version, std::string source);
    void publish(std::vector<ClusterEvent>&& events);
    void report(Resource resource, State state, std::string message, milliseconds retryIn = milliseconds(0));
    bool sleepFor(milliseconds duration);

    SlurmFetch ask(Resource resource) {
        if (m_cli) return resource == kNodes ? m_cli->nodes() : m_cli->squeueJson();
        return m_rest->get(resource == kNodes ? "nodes" : "jobs", m_updateTime[resource]);
    }

    SlurmTarget m_target;
    SlurmSourceOptions m_options;
    std::unique_ptr<SlurmRestClient> m_rest;
    std::unique_ptr<SlurmCli> m_cli;
    SlurmClusterMapper m_mapper; // poll thread only
    struct Report {
        Resource resource;
        State state;
        std::string message;
        milliseconds retryIn;
    };
    std::vector<Report> m_reports; // poll thread only
    std::int64_t m_updateTime[2] = {0, 0};
    std::int64_t m_topologyStamp = -2;
    std::string m_topologyNote; // why there is no topology, when there is none
    std::string m_jobsNote;     // why there are no jobs, when Slurm cannot list them
    std::chrono::steady_clock::time_point m_topologyReadAt{};
    bool m_topologyRead = false;
    bool m_versionAsked = false;

    std::function<void()> m_notify;
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;
    mutable std::mutex m_mutex; // guards what follows
    std::condition_variable m_wake;
    std::vector<ClusterEvent> m_events;
    std::vector<ResourceHealth> m_health;
    std::chrono::system_clock::time_point m_syncedAt{};
    Replies m_replies;
    std::vector<std::string> m_notes;
    std::string m_serverVersion;
    std::string m_serverVersionSource;
    bool m_changed = false;
};

// Held back until publish(), so that a consumer never sees "synced" before the events that
// synced it.
void SlurmSource::Impl::report(Resource resource, State state, std::string message, milliseconds retryIn) {
    m_reports.push_back({resource, state, std::move(message), retryIn});
}

void SlurmSource::Impl::publish(std::vector<ClusterEvent>&& events) {
    bool wake = false;
    {
        std::lock_guard lock(m_mutex);
        for (Report& report : m_reports) {
            if (!updateResourceHealth(m_health[report.resource], report.state, std::move(report.message), report.retryIn))
                continue;
            if (report.state == State::Synced) m_syncedAt = m_health[report.resource].since;
            m_changed = true;
        }
        m_reports.clear();
        if (!events.empty()) {
            m_events.insert(m_events.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
            wake = true;
        }
        wake = wake || m_changed;
        m_changed = false;
    }
    if (wake && m_notify) m_notify();
}

bool SlurmSource::Impl::sleepFor(milliseconds duration) {
    std::unique_lock lock(m_mutex);
    return !m_wake.wait_for(lock, duration, [&] { return m_stopping.load(); });
}

// The topology when it is due: a file when it changed, scontrol every topologyEvery. nullopt:
// nothing to do; a Fresh fetch: it was read (the mapper has it); Failed: why not.
std::optional<SlurmFetch> SlurmSource::Impl::readTopology() {
    SlurmFetch done;
    done.outcome = SlurmFetch::Outcome::Fresh;
    if (!m_target.topologyFile.empty()) {
        const std::int64_t stamp = fileStamp(m_target.topologyFile);
        if (m_topologyRead && stamp == m_topologyStamp) return std::nullopt;
        m_topologyStamp = stamp;
        m_topologyRead = true; // a bad file is read again once it changes
        auto topologies = readSlurmTopologyFile(m_target.topologyFile);
        Result<SlurmTopology> topology = topologies ? chooseTopology(std::move(*topologies), m_target.topologyName,
                                                                     m_target.topologyFile)
                                                    : Result<SlurmTopology>(topologies.error());
        if (!topology) {
            // The cluster still shows, grouped by partition; the error says what to fix.
            m_mapper.setTopology(nullptr);
            return SlurmFetch::failed(State::NotInstalled, "cannot use --slurm-topology: " + topology.error().message);
        }
        m_mapper.setTopology(std::make_shared<const SlurmTopology>(std::move(*topology)));
        return done;
    }
    if (m_rest) {
        if (m_topologyRead) return std::nullopt;
        m_topologyRead = true;
        m_mapper.setTopology(nullptr);
        return SlurmFetch::failed(State::NotInstalled,
                                  "slurmrestd does not serve the topology: the map groups nodes by partition; give "
                                  "--slurm-topology FILE (topology.conf or topology.yaml) for switches or blocks");
    }
    const auto now = std::chrono::steady_clock::now();
    if (m_topologyRead && now - m_topologyReadAt < m_options.topologyEvery) return std::nullopt;
    SlurmFetch fetch = m_cli->showTopology();
    if (fetch.outcome != SlurmFetch::Outcome::Fresh) return fetch;
    m_topologyReadAt = now;
    m_topologyRead = true;
    Result<SlurmTopology> topology = parseScontrolTopology(fetch.body);
    if (!topology) {
        m_mapper.setTopology(nullptr);
        return SlurmFetch::failed(State::NotInstalled, "cannot read scontrol show topology: " + topology.error().message);
    }
    if (topology->kind == SlurmTopology::Kind::Flat) {
        m_mapper.setTopology(nullptr);
        return SlurmFetch::failed(State::NotInstalled, "Slurm has no topology plugin configured (scontrol show "
                                                       "topology is empty): the map groups nodes by partition");
    }
    m_mapper.setTopology(std::make_shared<const SlurmTopology>(std::move(*topology)));
    return done;
}

void SlurmSource::Impl::setServerVersion(std::string version, std::string source) {
    std::lock_guard lock(m_mutex);
    if (version == m_serverVersion && source == m_serverVersionSource) return;
    m_serverVersion = std::move(version);
    m_serverVersionSource = std::move(source);
    m_changed = true;
}

// slurmctld's release (scontrol show config), once per connection: it changes only when Slurm is
// upgraded. While slurmctld cannot be reached the commands' own release stands in and slurmctld
// is asked again next cycle. slurmrestd says its own release in every reply's meta instead
// (slurmrestd answers no request with slurmctld's).
void SlurmSource::Impl::readVersion() {
    if (!m_cli || m_versionAsked) return;
    Result<SlurmCli::Version> version = m_cli->version();
    m_versionAsked = !version || !version->controllerUnreachable;
    if (!version) {
        spdlog::info("{}: Slurm version unknown: {}", m_cli->describe(), version.error().message);
        return;
    }
    std::string source = version->controller
                             ? "slurmctld (" + version->command + ")"
                             : version->command + " (the commands' own; slurmctld's was not read)";
    setServerVersion(std::move(version->text), std::move(source));
}

// One cycle: topology when due, nodes, jobs. False when a required part failed (the caller
// backs off); what did arrive is published either way.
bool SlurmSource::Impl::pollOnce(std::vector<ClusterEvent>& events) {
    bool ok = true;
    bool notesDue = refreshTopology(); // the nodes or the topology changed
    readVersion();
    if (!discoverRestVersion()) return false;
    for (Resource resource : {kNodes, kJobs}) {
        if (m_stopping) return false;
        if (!pollResource(resource, notesDue) && resource == kNodes) ok = false;
    }
    if (notesDue) updateNotes();
    // Nodes first: pods of a job on a node not listed yet would make a nameless node.
    events = m_mapper.takeEvents();
    return ok;
}

// Reads the topology when it is due and reports how that went. True when it was read or failed
// to be: the notes may have changed.
bool SlurmSource::Impl::refreshTopology() {
    std::optional<SlurmFetch> topology = readTopology();
    if (!topology) return false;
    m_topologyNote.clear();
    if (topology->outcome == SlurmFetch::Outcome::Failed) {
        // No topology is a fact about the cluster; a broken one an error worth retrying.
        if (topology->failure == State::NotInstalled) m_topologyNote = topology->message;
        report(kTopology, topology->failure, topology->message);
    } else {
        report(kTopology, State::Synced, {});
    }
    const SlurmTopology* topologyRead = m_mapper.topology().get();
    std::lock_guard lock(m_mutex);
    m_health[kTopology].objects = topologyRead ? topologyRead->switches.size() + topologyRead->blocks.size() : 0;
    return true;
}

// slurmrestd's API version, found once per connection before anything is asked. False when it
// cannot be found (reported against nodes and jobs).
bool SlurmSource::Impl::discoverRestVersion() {
    if (!m_rest || !m_rest->apiVersion().empty()) return true;
    SlurmFetch discovered = m_rest->discoverVersion();
    if (discovered.outcome == SlurmFetch::Outcome::Failed) {
        report(kNodes, discovered.failure, discovered.message);
        report(kJobs, discovered.failure, discovered.message);
        return false;
    }
    spdlog::info("{}: using REST API {}", m_rest->describe(), m_rest->apiVersion());
    return true;
}

// Asks for nodes or jobs and hands what changed to the mapper. False when that failed (reported);
// notesDue is set when the notes may have changed.
bool SlurmSource::Impl::pollResource(Resource resource, bool& notesDue) {
    const std::int64_t askedAt = epochSeconds();
    SlurmFetch fetch = ask(resource);
    if (fetch.outcome == SlurmFetch::Outcome::Failed) {
        reportFailedFetch(resource, fetch);
        notesDue = notesDue || resource == kJobs;
        return false;
    }
    if (fetch.outcome == SlurmFetch::Outcome::Fresh && !takeReply(resource, fetch, askedAt, notesDue)) return false;
    if (resource == kJobs && !m_jobsNote.empty()) {
        m_jobsNote.clear();
        notesDue = true;
    }
    report(resource, State::Synced, {});
    return true;
}

void SlurmSource::Impl::reportFailedFetch(Resource resource, const SlurmFetch& fetch) {
    State state = fetch.failure;
    std::string message = fetch.message;
    // 22.05's slurmrestd says the same 500 for a token slurmctld rejects and for a
    // slurmctld it cannot reach: before anything ever synced, the token is the suspect.
    bool everSynced;
    {
        std::lock_guard lock(m_mutex);
        everSynced = m_health[resource].everSynced;
    }
    if (m_rest && state == State::Failing && !everSynced && message.find("Unspecified error") != std::string::npos) {
        state = State::Unauthorized;
        message += ": slurmctld rejected the token (wrong key, user or expired), or slurmrestd cannot reach it";
    }
    if (resource == kJobs) m_jobsNote = state == State::NotInstalled ? message : std::string();
    report(resource, state, std::move(message));
}

// Reads a fresh reply into the mapper and keeps its JSON for snapshots. False when it could not
// be read (reported); notesDue is set when new nodes arrived.
bool SlurmSource::Impl::takeReply(Resource resource, SlurmFetch& fetch, std::int64_t askedAt, bool& notesDue) {
    const std::string source = m_rest ? m_rest->describe() + " " + (resource == kNodes ? "nodes" : "jobs")
                                      : std::string(resource == kNodes ? "sinfo --json" : "squeue --json");
    auto shared = std::make_shared<std::string>(std::move(fetch.body));
    ReplyRead read;
    if (resource == kNodes && fetch.format == SlurmFetch::Format::ScontrolNodes) {
        read = readScontrolNodes(*shared);
        if (read.problem.empty()) shared.reset(); // not the JSON a snapshot holds
    } else if (resource == kNodes) {
        read = readNodesJson(*shared, source);
    } else {
        read = readJobsJson(*shared, source);
    }
    if (!read.problem.empty()) {
        // Slurm's own "errors" (slurmctld down, for the CLI), or a reply we cannot read.
        const bool controller = read.problem.find("Unspecified error") != std::string::npos ||
                                read.problem.find("slurm_load") != std::string::npos;
        report(resource, controller ? State::Unreachable : State::Failing, std::move(read.problem));
        return false;
    }
    if (resource == kNodes) notesDue = true;
    // Changes made in the second of the question would be missed by asking "since then".
    m_updateTime[resource] = (read.lastUpdate > 0 ? read.lastUpdate : askedAt) - 1;
    std::lock_guard lock(m_mutex);
    m_health[resource].objects = read.objects;
    (resource == kNodes ? m_replies.nodes : m_replies.jobs) = std::move(shared);
    return true;
}

ReplyRead SlurmSource::Impl::readScontrolNodes(const std::string& text) {
    ReplyRead read;
    Result<std::vector<SlurmNode>> nodes = parseScontrolNodes(text);
    if (!nodes) {
        read.problem = "scontrol show nodes: " + nodes.error().message;
        return read;
    }
    read.objects = nodes->size();
    m_mapper.setNodes(std::move(*nodes));
    return read;
}

ReplyRead SlurmSource::Impl::readNodesJson(std::string& json, const std::string& source) {
    ReplyRead read;
    Result<SlurmNodesReply> reply = readSlurmNodes(json, source);
    if (!reply) {
        read.problem = reply.error().message;
        return read;
    }
    read.objects = reply->nodes.size();
    read.lastUpdate = reply->meta.lastUpdate;
    if (m_rest && !reply->meta.slurmRelease.empty())
        setServerVersion(std::move(reply->meta.slurmRelease), "slurmrestd");
    m_mapper.setNodes(std::move(reply->nodes));
    return read;
}

// Only jobs that hold nodes count: they are what the map shows.
ReplyRead SlurmSource::Impl::readJobsJson(std::string& json, const std::string& source) {
    ReplyRead read;
    Result<SlurmJobsReply> reply = readSlurmJobs(json, source);
    if (!reply) {
        read.problem = reply.error().message;
        return read;
    }
    read.objects = static_cast<std::size_t>(
        std::count_if(reply->jobs.begin(), reply->jobs.end(), [](const SlurmJob& job) { return job.holdsNodes(); }));
    read.lastUpdate = reply->meta.lastUpdate;
    if (m_rest && !reply->meta.slurmRelease.empty())
        setServerVersion(std::move(reply->meta.slurmRelease), "slurmrestd");
    m_mapper.setJobs(std::move(reply->jobs));
    return read;
}

// The notes the status shows: why there is no topology or no jobs, and the topology's warnings.
void SlurmSource::Impl::updateNotes() {
    std::vector<std::string> notes;
    for (const std::string* note : {&m_topologyNote, &m_jobsNote})
        if (!note->empty()) notes.push_back(*note);
    if (m_mapper.topology())
        for (const std::string& warning : m_mapper.topology()->warnings) notes.push_back(warning);
    for (std::string& warning : m_mapper.topologyWarnings()) notes.push_back(std::move(warning));
    std::lock_guard lock(m_mutex);
    m_replies.topology = m_mapper.topology();
    if (notes != m_notes) {
        m_notes = std::move(notes);
        m_changed = true;
    }
}

void SlurmSource::Impl::run() {
    std::mt19937 random(std::random_device{}());
    milliseconds backoff = m_options.backoffInitial;
    while (!m_stopping) {
        const auto started = std::chrono::steady_clock::now();
        std::vector<ClusterEvent> events;
        const bool ok = pollOnce(events);
        milliseconds wait = m_options.pollInterval;
        if (!ok) {
            // Exponential with jitter, never more often than the poll when that is longer.
            std::uniform_int_distribution<long> jitter(0, std::max<long>(1, backoff.count() / 2));
            wait = std::min(m_options.pollInterval, backoff + milliseconds(jitter(random)));
            backoff = std::min(backoff * 2, m_options.backoffMax);
            for (Report& report : m_reports)
                if (report.state != State::Synced && report.state != State::NotInstalled) report.retryIn = wait;
        } else {
            backoff = m_options.backoffInitial;
            // A poll that took a while does not push the next one back.
            const auto spent = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started);
            wait = std::max(milliseconds(0), m_options.pollInterval - spent);
        }
        publish(std::move(events));
        // Wake the consumer when a failing source turns stale during the wait.
        milliseconds untilStale{-1};
        {
            std::lock_guard lock(m_mutex);
            const ResourceHealth& nodes = m_health[kNodes];
            if (nodes.everSynced && nodes.state != State::Synced) {
                const auto lasted = std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now() - nodes.since);
                if (lasted < m_options.staleAfter) untilStale = m_options.staleAfter - lasted;
            }
        }
        if (untilStale >= milliseconds(0) && untilStale < wait) {
            if (!sleepFor(untilStale)) break;
            if (m_notify) m_notify();
            wait -= untilStale;
        }
        if (!sleepFor(wait)) break;
    }
}

SlurmSource::SlurmSource(SlurmTarget target, SlurmSourceOptions options)
    : m_impl(std::make_unique<Impl>(std::move(target), options)) {}
SlurmSource::~SlurmSource() = default;
void SlurmSource::start(std::function<void()> notify) {
    m_impl->start(std::move(notify));
}
void SlurmSource::stop() {
    m_impl->stop();
}
std::vector<ClusterEvent> SlurmSource::takeEvents() {
    return m_impl->takeEvents();
}
LiveStatus SlurmSource::status() const {
    return m_impl->status();
}
SlurmSource::Replies SlurmSource::replies() const {
    return m_impl->replies();
}

} // namespace topodeck
