#include "net/kube_source.h"

#include "core/formats/kube_response_reader.h"
#include "net/kube_client.h"

#include <simdjson.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <unordered_map>

namespace topodeck {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

enum class ObjectType {
    Node,
    Pod,
    KueueTopology,
    ResourceFlavor,
    KaiTopology,
    HyperNode,
    ResourceSlice,
    ResourceClaim,
    ResourceClaimTemplate,
    DeviceClass,
    ComputeDomain,
};

// One kind of object the source follows.
struct ResourceKind {
    ObjectType type;
    std::string_view resource; // plural, as in the URL
    std::string_view group;    // "" for the core API
    std::vector<std::string_view> versions; // the versions topodeck reads, newest first
    std::string_view title;
    std::string_view consequence; // what a 403 costs
    bool required;
    std::string_view fieldSelector;
};

const std::vector<ResourceKind>& resourceKinds() {
    // The fields topodeck reads are the same in every listed version of a CRD.
    static const std::vector<ResourceKind> kinds = {
        {ObjectType::Node, "nodes", "", {"v1"}, "nodes", "nothing to show", true, ""},
        // Only pods that hold resources on a node; a pod that finishes leaves the selection, which
        // the API server reports as a deletion.
        {ObjectType::Pod, "pods", "", {"v1"}, "pods", "occupancy unavailable", false,
         "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed"},
        {ObjectType::KueueTopology, "topologies", "kueue.x-k8s.io", {"v1beta2", "v1beta1", "v1alpha1"},
         "Kueue Topologies", "the hierarchy comes from node labels only", false, ""},
        {ObjectType::ResourceFlavor, "resourceflavors", "kueue.x-k8s.io", {"v1beta2", "v1beta1"},
         "Kueue ResourceFlavors", "flavors unknown", false, ""},
        {ObjectType::KaiTopology, "topologies", "kai.scheduler", {"v1alpha1"}, "KAI Topologies",
         "the hierarchy comes from node labels only", false, ""},
        {ObjectType::HyperNode, "hypernodes", "topology.volcano.sh", {"v1alpha1"}, "Volcano HyperNodes",
         "Volcano dry-runs use HyperNodes derived from the labels", false, ""},
        // DRA: v1 from Kubernetes 1.34, v1beta2 from 1.33, v1beta1 from 1.32 (betas only when the
        // server enables them); discovery tells which the server serves.
        {ObjectType::DeviceClass, "deviceclasses", "resource.k8s.io", {"v1", "v1beta2", "v1beta1"}, "DRA DeviceClasses",
         "GPU devices are told by NVIDIA's default rule, not the classes' selectors", false, ""},
        {ObjectType::ResourceSlice, "resourceslices", "resource.k8s.io", {"v1", "v1beta2", "v1beta1"},
         "DRA ResourceSlices", "GPUs published through DRA are not counted", false, ""},
        {ObjectType::ResourceClaimTemplate, "resourceclaimtemplates", "resource.k8s.io", {"v1", "v1beta2", "v1beta1"},
         "DRA ResourceClaimTemplates", "gangs asking for devices through templates cannot be dry-run", false, ""},
        {ObjectType::ResourceClaim, "resourceclaims", "resource.k8s.io", {"v1", "v1beta2", "v1beta1"},
         "DRA ResourceClaims", "GPUs allocated through DRA look free", false, ""},
        // NVIDIA's DRA driver (compute-domain.nvidia.com): the CRD serves v1beta1 only.
        {ObjectType::ComputeDomain, "computedomains", "resource.nvidia.com", {"v1beta1"}, "NVIDIA ComputeDomains",
         "which NVLink cliques multi-node workloads use for IMEX is unknown", false, ""},
    };
    return kinds;
}

std::string fullName(const ResourceKind& kind) {
    return kind.group.empty() ? std::string(kind.resource) : std::string(kind.resource) + '.' + std::string(kind.group);
}

std::string urlEncode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return out;
}

// The one object of a watch event or list item, as an upsert, and its key ("ns/name" for pods).
struct KeyedEvent {
    std::string key;
    ClusterEvent event;
};

std::vector<KeyedEvent> upserts(Snapshot&& objects) {
    std::vector<KeyedEvent> out;
    out.reserve(objects.nodes.size() + objects.pods.size() + objects.topologies.size() + objects.hyperNodes.size() +
                objects.resourceFlavors.size() + objects.resourceSlices.size() + objects.resourceClaims.size() +
                objects.resourceClaimTemplates.size() + objects.deviceClasses.size() + objects.computeDomains.size());
    for (Node& node : objects.nodes) {
        std::string key = node.name;
        out.push_back({std::move(key), NodeUpserted{std::move(node)}});
    }
    for (Pod& pod : objects.pods) {
        std::string key = pod.nameSpace + '/' + pod.name;
        out.push_back({std::move(key), PodUpserted{std::move(pod)}});
    }
    for (TopologySpec& spec : objects.topologies) {
        std::string key = spec.name;
        out.push_back({std::move(key), TopologyUpserted{std::move(spec)}});
    }
    for (HyperNode& hyperNode : objects.hyperNodes) {
        std::string key = hyperNode.name;
        out.push_back({std::move(key), HyperNodeUpserted{std::move(hyperNode)}});
    }
    for (ResourceFlavor& flavor : objects.resourceFlavors) {
        std::string key = flavor.name;
        out.push_back({std::move(key), ResourceFlavorUpserted{std::move(flavor)}});
    }
    for (DeviceClass& deviceClass : objects.deviceClasses) {
        std::string key = deviceClass.name;
        out.push_back({std::move(key), DeviceClassUpserted{std::move(deviceClass)}});
    }
    for (ResourceSlice& slice : objects.resourceSlices) {
        std::string key = slice.name;
        out.push_back({std::move(key), ResourceSliceUpserted{std::move(slice)}});
    }
    for (ResourceClaimTemplate& claimTemplate : objects.resourceClaimTemplates) {
        std::string key = claimTemplate.key();
        out.push_back({std::move(key), ResourceClaimTemplateUpserted{std::move(claimTemplate)}});
    }
    for (ResourceClaim& claim : objects.resourceClaims) {
        std::string key = claim.key();
        out.push_back({std::move(key), ResourceClaimUpserted{std::move(claim)}});
    }
    for (ComputeDomain& domain : objects.computeDomains) {
        std::string key = domain.key();
        out.push_back({std::move(key), ComputeDomainUpserted{std::move(domain)}});
    }
    return out;
}

ClusterEvent deletion(ObjectType type, const std::string& key) {
    switch (type) {
    case ObjectType::Node:
        return NodeDeleted{key};
    case ObjectType::Pod: {
        const auto slash = key.find('/');
        return PodDeleted{key.substr(0, slash), key.substr(slash + 1)};
    }
    case ObjectType::KueueTopology:
        return TopologyDeleted{key, "kueue"};
    case ObjectType::KaiTopology:
        return TopologyDeleted{key, "kai"};
    case ObjectType::HyperNode:
        return HyperNodeDeleted{key};
    case ObjectType::ResourceFlavor:
        return ResourceFlavorDeleted{key};
    case ObjectType::ResourceSlice:
        return ResourceSliceDeleted{key};
    case ObjectType::DeviceClass:
        return DeviceClassDeleted{key};
    case ObjectType::ComputeDomain: {
        const auto slash = key.find('/');
        return ComputeDomainDeleted{key.substr(0, slash), key.substr(slash + 1)};
    }
    case ObjectType::ResourceClaim:
    case ObjectType::ResourceClaimTemplate: {
        const auto slash = key.find('/');
        if (type == ObjectType::ResourceClaim) return ResourceClaimDeleted{key.substr(0, slash), key.substr(slash + 1)};
        return ResourceClaimTemplateDeleted{key.substr(0, slash), key.substr(slash + 1)};
    }
    }
    return NodeDeleted{key};
}

// Exponential backoff with jitter: each wait is drawn from [d/2, d], d doubling up to the maximum.
class Backoff {
public:
    Backoff(milliseconds initial, milliseconds max) : m_initial(initial), m_max(max), m_next(initial) {}
    milliseconds next() {
        const milliseconds ceiling = m_next;
        m_next = std::min(m_max, m_next * 2);
        std::uniform_int_distribution<long> pick(ceiling.count() / 2, ceiling.count());
        return milliseconds(pick(m_random));
    }
    void reset() { m_next = m_initial; }

private:
    milliseconds m_initial, m_max, m_next;
    std::mt19937 m_random{std::random_device{}()};
};

} // namespace

class KubeSource::Impl {
public:
    Impl(KubeConnection connection, ExecEnvironment exec, KubeSourceOptions options)
        : m_options(options), m_origin("context " + connection.contextName + " (" + connection.server + ')') {
        exec.cancelled = &m_stopping;
        exec.maxOutput = options.limits.credentialOutput;
        m_credentials = std::make_shared<KubeCredentials>(std::move(connection), std::move(exec));
        for (const ResourceKind& kind : resourceKinds()) {
            ResourceHealth health;
            health.resource = fullName(kind);
            health.title = std::string(kind.title);
            health.required = kind.required;
            health.since = std::chrono::system_clock::now();
            m_health.push_back(std::move(health));
        }
    }

    ~Impl() { stop(); }

    void start(std::function<void()> notify);

    void stop() {
        {
            std::lock_guard lock(m_mutex);
            if (m_threads.empty()) return;
            m_stopping = true;
        }
        m_wake.notify_all();
        for (auto& client : m_clients) client->cancel();
        for (std::thread& thread : m_threads) thread.join();
        m_threads.clear();
        m_clients.clear();
    }

    std::vector<ClusterEvent> takeEvents() {
        std::vector<ClusterEvent> out;
        std::lock_guard lock(m_mutex);
        out.swap(m_events);
        return out;
    }

    LiveStatus status() const {
        std::lock_guard lock(m_mutex);
        LiveStatus status;
        status.origin = m_origin;
        status.resources = m_health;
        aggregate(status);
        return status;
    }

private:
    class Watcher;

    void aggregate(LiveStatus& status) const {
        aggregateResourceHealth(status, m_syncedAt, m_options.staleAfter, std::chrono::system_clock::now());
    }

    // Under m_mutex.
    void setHealth(std::size_t index, ResourceHealth::State state, std::string message, milliseconds retryIn) {
        if (!updateResourceHealth(m_health[index], state, std::move(message), retryIn)) return;
        if (state == ResourceHealth::State::Synced) m_syncedAt = m_health[index].since;
        m_changed = true;
    }

    void publish(std::vector<ClusterEvent>&& events, std::size_t index, std::size_t objects) {
        bool wake = false;
        {
            std::lock_guard lock(m_mutex);
            m_health[index].objects = objects;
            if (!events.empty()) {
                wake = m_events.empty();
                if (m_events.empty()) {
                    m_events = std::move(events);
                } else {
                    m_events.insert(m_events.end(), std::make_move_iterator(events.begin()),
                                    std::make_move_iterator(events.end()));
                }
            }
            wake = wake || m_changed;
            m_changed = false;
        }
        if (wake && m_notify) m_notify();
    }

    void report(std::size_t index, ResourceHealth::State state, std::string message,
                milliseconds retryIn = milliseconds(0)) {
        {
            std::lock_guard lock(m_mutex);
            setHealth(index, state, std::move(message), retryIn);
            if (!m_changed) return;
            m_changed = false;
        }
        if (m_notify) m_notify();
    }

    // Sleeps, unless stopped first; false when stopped. Wakes the consumer once when a reconnect
    // of `index` turns stale during the wait.
    bool sleep(milliseconds duration, std::size_t index) {
        const auto until = Clock::now() + duration;
        std::unique_lock lock(m_mutex);
        const ResourceHealth& health = m_health[index];
        std::optional<Clock::time_point> staleAt;
        if (health.everSynced && health.state != ResourceHealth::State::Synced) {
            const auto lasted = std::chrono::system_clock::now() - health.since;
            if (lasted < m_options.staleAfter)
                staleAt = Clock::now() + std::chrono::duration_cast<Clock::duration>(m_options.staleAfter - lasted);
        }
        if (staleAt && *staleAt < until) {
            if (m_wake.wait_until(lock, *staleAt, [&] { return m_stopping.load(); })) return false;
            lock.unlock();
            if (m_notify) m_notify();
            lock.lock();
        }
        return !m_wake.wait_until(lock, until, [&] { return m_stopping.load(); });
    }

    KubeSourceOptions m_options;
    std::string m_origin;
    std::shared_ptr<KubeCredentials> m_credentials;
    std::function<void()> m_notify;
    std::atomic<bool> m_stopping{false};

    mutable std::mutex m_mutex; // guards everything below
    std::condition_variable m_wake;
    std::vector<ClusterEvent> m_events;
    std::vector<ResourceHealth> m_health; // by resourceKinds() index
    bool m_changed = false;
    std::chrono::system_clock::time_point m_syncedAt{};
    std::vector<std::unique_ptr<KubeClient>> m_clients;
    std::vector<std::thread> m_threads;
};

// Follows one resource on its own thread: discovery (for CRDs), list, watch, and again.
class KubeSource::Impl::Watcher {
public:
    Watcher(Impl& source, const ResourceKind& kind, std::size_t index, KubeClient& client)
        : m_source(source), m_kind(kind), m_index(index), m_client(client),
          m_backoff(source.m_options.backoffInitial, source.m_options.backoffMax), m_name(fullName(kind)) {
        if (kind.group.empty()) m_path = "/api/v1/" + std::string(kind.resource);
    }

    void run() {
        using State = ResourceHealth::State;
        while (!stopping()) {
            if (m_path.empty() && !discover()) continue;
            if (m_needList) {
                const Outcome listed = list();
                if (listed.kind != Outcome::Done) {
                    if (!wait(listed)) return;
                    continue;
                }
            }
            const Outcome watched = watch();
            if (watched.kind == Outcome::Done) continue; // the server ended it: resume at once
            if (watched.kind == Outcome::Relist) {
                m_needList = true;
                m_source.report(m_index, State::Listing, "relisting: " + watched.message);
                continue;
            }
            if (!wait(watched)) return;
        }
    }

private:
    struct Outcome {
        // Retry: the server answered with an error; Unreachable: no answer (connection, TLS, timeout).
        enum Kind { Done, Relist, Retry, Unreachable, Forbidden, NotInstalled, Unauthorized } kind = Done;
        std::string message;
        milliseconds retryAfter{0};
    };

    bool stopping() const { return m_source.m_stopping.load(); }

    // Reports the outcome and sleeps before the next attempt; false when stopped meanwhile.
    bool wait(const Outcome& outcome) {
        using State = ResourceHealth::State;
        const KubeSourceOptions& options = m_source.m_options;
        milliseconds delay = m_backoff.next();
        State state = m_synced ? State::Reconnecting : State::Failing;
        switch (outcome.kind) {
        case Outcome::Forbidden:
            state = State::Forbidden;
            delay = options.forbiddenRetry;
            break;
        case Outcome::NotInstalled:
            state = State::NotInstalled;
            delay = options.rediscoverEvery;
            break;
        case Outcome::Unauthorized:
            state = State::Unauthorized;
            break;
        case Outcome::Unreachable:
            if (!m_synced) state = State::Unreachable;
            break;
        default:
            break;
        }
        if (outcome.retryAfter > delay) delay = std::min(outcome.retryAfter, options.backoffMax);
        // Forbidden and absent resources are looked at again too, but that is no news to anyone.
        const bool retrying = state == State::Failing || state == State::Unreachable || state == State::Reconnecting ||
                              state == State::Unauthorized;
        if (!stopping()) {
            if (state == State::NotInstalled)
                spdlog::debug("{}: not installed", m_name);
            else
                spdlog::info("{}: {}", m_name, withRetry(outcome.message, delay));
        }
        m_source.report(m_index, state, outcome.message, retrying ? delay : milliseconds(0));
        return m_source.sleep(delay, m_index);
    }

    // What a non-2xx answer means for this resource.
    Outcome failure(long status, const std::string& body, std::string_view doing, const HttpResponse* response = nullptr) {
        Outcome outcome{Outcome::Retry, describeKubeStatus(status, body), milliseconds(0)};
        if (status == 401) {
            outcome.kind = Outcome::Unauthorized;
            outcome.message = "401 Unauthorized: the server does not accept the credentials of context \"" +
                              m_client.connection().contextName + '"';
        } else if (status == 403) {
            outcome.kind = Outcome::Forbidden;
            outcome.message = "no permission to " + std::string(doing) + ": " + std::string(m_kind.consequence);
        } else if (status == 404 && !m_kind.group.empty()) {
            outcome.kind = Outcome::NotInstalled;
            outcome.message = "not installed";
        }
        if (response && (status == 429 || status == 503)) {
            if (const std::string_view after = response->header("Retry-After"); !after.empty()) {
                int seconds = 0;
                if (std::from_chars(after.data(), after.data() + after.size(), seconds).ec == std::errc())
                    outcome.retryAfter = std::chrono::seconds(seconds);
            }
        }
        return outcome;
    }

    // Finds which version of a CRD's API group the server serves the resource in; false when it
    // does not (the CRD is not installed: absent, looked for again later).
    bool discover() {
        const std::string group(m_kind.group);
        const milliseconds timeout = m_source.m_options.requestTimeout;
        Result<HttpResponse> groupResponse = m_client.get("/apis/" + group, timeout);
        if (!groupResponse) {
            wait({Outcome::Unreachable, groupResponse.error().message, milliseconds(0)});
            return false;
        }
        if (groupResponse->status != 200) {
            Outcome outcome = failure(groupResponse->status, groupResponse->body, "discover " + group, &*groupResponse);
            if (!stopping()) wait(outcome);
            return false;
        }
        std::vector<std::string> served;
        std::string preferred;
        {
            simdjson::dom::parser parser;
            simdjson::dom::element root;
            if (!parser.parse(groupResponse->body).get(root)) {
                simdjson::dom::array versions;
                if (!root["versions"].get(versions))
                    for (simdjson::dom::element v : versions) {
                        std::string_view version;
                        if (!v["version"].get(version)) served.emplace_back(version);
                    }
                std::string_view version;
                if (!root["preferredVersion"]["version"].get(version)) preferred = version;
            }
        }
        // The server's preferred version first, then ours from newest.
        std::vector<std::string> candidates;
        for (std::string_view ours : m_kind.versions)
            if (ours == preferred) candidates.emplace_back(ours);
        for (std::string_view ours : m_kind.versions)
            if (ours != preferred && std::find(served.begin(), served.end(), ours) != served.end())
                candidates.emplace_back(ours);
        for (const std::string& version : candidates) {
            Result<HttpResponse> list = m_client.get("/apis/" + group + '/' + version, timeout);
            if (!list || list->status != 200) continue;
            simdjson::dom::parser parser;
            simdjson::dom::element root;
            simdjson::dom::array resources;
            if (parser.parse(list->body).get(root) || root["resources"].get(resources)) continue;
            for (simdjson::dom::element resource : resources) {
                std::string_view name;
                if (!resource["name"].get(name) && name == m_kind.resource) {
                    m_path = "/apis/" + group + '/' + version + '/' + std::string(m_kind.resource);
                    m_needList = true;
                    return true;
                }
            }
        }
        wait({Outcome::NotInstalled, "not installed", milliseconds(0)});
        return false;
    }

    std::string selector() const {
        return m_kind.fieldSelector.empty() ? std::string() : "&fieldSelector=" + urlEncode(m_kind.fieldSelector);
    }

    // Lists every object in pages, emitting only what is new or changed, then deletes what the
    // list no longer has. Done when the whole list was read.
    Outcome list() {
        using State = ResourceHealth::State;
        const KubeSourceOptions& options = m_source.m_options;
        m_source.report(m_index, State::Listing, m_synced ? "relisting" : std::string());
        std::string continueToken;
        int restarts = 0;
        bool paged = true;
        ++m_pass;
        while (!stopping()) {
            std::string query = "?";
            if (paged) query += "limit=" + std::to_string(options.pageSize);
            query += selector();
            if (!continueToken.empty()) query += "&continue=" + urlEncode(continueToken);
            if (query.size() > 1 && query[1] == '&') query.erase(1, 1);
            Result<HttpResponse> response = m_client.get(m_path + (query.size() > 1 ? query : ""), options.requestTimeout);
            // A page too large to keep is the server's answer, not a lost connection.
            if (!response)
                return {m_client.refusedByLimit() ? Outcome::Retry : Outcome::Unreachable, response.error().message,
                        milliseconds(0)};
            if (response->status == 410 && !continueToken.empty()) {
                // The continue token expired (etcd compacted past it): start over, as a new pass
                // so that what only the abandoned pass saw is not kept; after two such restarts
                // read the list in one piece.
                spdlog::info("{}: continue token expired; listing again from the start", m_name);
                continueToken.clear();
                ++m_pass;
                if (++restarts >= 2) paged = false;
                continue;
            }
            if (response->status != 200) {
                Outcome outcome = failure(response->status, response->body, "list " + std::string(m_kind.title), &*response);
                if (outcome.kind == Outcome::NotInstalled) forgetAll(); // the CRD was removed
                return outcome;
            }
            Result<KubeListPage> page = m_reader.readListPage(response->body, "GET " + m_path);
            if (!page) return {Outcome::Retry, "cannot read the list: " + page.error().message, milliseconds(0)};
            std::vector<ClusterEvent> events;
            std::vector<KeyedEvent> objects = upserts(std::move(page->objects));
            for (std::size_t i = 0; i < objects.size(); ++i) {
                Stored& stored = m_store[objects[i].key];
                stored.pass = m_pass;
                if (stored.resourceVersion == page->resourceVersions[i]) continue; // unchanged since we last saw it
                stored.resourceVersion = std::move(page->resourceVersions[i]);
                events.push_back(std::move(objects[i].event));
            }
            m_resourceVersion = page->resourceVersion;
            continueToken = page->continueToken;
            if (continueToken.empty()) {
                for (auto it = m_store.begin(); it != m_store.end();) {
                    if (it->second.pass == m_pass) {
                        ++it;
                        continue;
                    }
                    events.push_back(deletion(m_kind.type, it->first));
                    it = m_store.erase(it);
                }
                m_source.publish(std::move(events), m_index, m_store.size());
                m_needList = false;
                m_synced = true;
                m_backoff.reset();
                m_source.report(m_index, State::Synced, {});
                return {};
            }
            m_source.publish(std::move(events), m_index, m_store.size());
        }
        return {Outcome::Retry, "stopped", milliseconds(0)};
    }

    // Watches from the last resourceVersion seen until the server ends the watch (Done), asks
    // for a relist (410), or the connection fails.
    Outcome watch() {
        using State = ResourceHealth::State;
        const KubeSourceOptions& options = m_source.m_options;
        std::uniform_int_distribution<long> pick(options.watchTimeout.count(), 2 * options.watchTimeout.count() - 1);
        const long timeoutSeconds = std::max(1L, pick(m_random));
        const std::string query = "?watch=1&allowWatchBookmarks=true&resourceVersion=" + urlEncode(m_resourceVersion) +
                                  "&timeoutSeconds=" + std::to_string(timeoutSeconds) + selector();
        Outcome outcome;
        std::vector<ClusterEvent> events;
        // The server ends the watch after timeoutSeconds; a silent connection is given a minute more.
        const milliseconds transferTimeout = std::chrono::seconds(timeoutSeconds + 60);
        Result<long> status = m_client.watch(m_path + query, transferTimeout, [&](std::string& line) {
            Result<KubeWatchEvent> event = m_reader.readWatchEvent(line, "watch " + m_path);
            if (!event) {
                outcome = {Outcome::Relist, "cannot read a watch event: " + event.error().message, milliseconds(0)};
                return false;
            }
            if (!apply(std::move(*event), events, outcome)) return false;
            m_source.publish(std::move(events), m_index, m_store.size());
            events.clear();
            return true;
        }, [&](long httpStatus) {
            if (httpStatus != 200) return;
            // Established: a watch that had been lost is back.
            m_backoff.reset();
            m_source.report(m_index, State::Synced, {});
        });
        if (!status) {
            if (outcome.kind != Outcome::Done) return outcome;
            // An event too large to keep would come again on a watch resumed before it: relist
            // (the object comes in a list page, under its own limit), after the backoff, so that a
            // server sending such events does not have the source relisting in a loop.
            if (m_client.refusedByLimit()) {
                m_needList = true;
                return {Outcome::Retry, "watch ended: " + status.error().message, milliseconds(0)};
            }
            return {Outcome::Unreachable, "watch lost: " + status.error().message, milliseconds(0)};
        }
        if (outcome.kind != Outcome::Done) return outcome;
        if (*status == 410) return {Outcome::Relist, "410 Gone: resourceVersion " + m_resourceVersion + " is too old", milliseconds(0)};
        if (*status != 200) {
            Outcome failed = failure(*status, m_client.errorBody(), "watch " + std::string(m_kind.title));
            // The CRD was removed while watched: look for it again (it may come back in another
            // version), rather than watching a path that is gone for good.
            if (failed.kind == Outcome::NotInstalled) forgetAll();
            return failed;
        }
        return {};
    }

    // One watch event into the store and events; false (with outcome set) to end the watch.
    bool apply(KubeWatchEvent&& event, std::vector<ClusterEvent>& events, Outcome& outcome) {
        switch (event.type) {
        case KubeWatchEvent::Type::Bookmark:
            m_resourceVersion = std::move(event.resourceVersion);
            return true;
        case KubeWatchEvent::Type::Error:
            if (event.status.code == 410) {
                outcome = {Outcome::Relist, "410 Gone: " + event.status.message, milliseconds(0)};
            } else {
                outcome = {Outcome::Retry, "watch error " + std::to_string(event.status.code) + ": " + event.status.message,
                           milliseconds(0)};
            }
            return false;
        case KubeWatchEvent::Type::Added:
        case KubeWatchEvent::Type::Modified: {
            std::vector<KeyedEvent> objects = upserts(std::move(event.object));
            m_resourceVersion = event.resourceVersion;
            Stored& stored = m_store[objects.front().key];
            stored.pass = m_pass;
            if (stored.resourceVersion == event.resourceVersion) return true; // seen already
            stored.resourceVersion = std::move(event.resourceVersion);
            events.push_back(std::move(objects.front().event));
            return true;
        }
        case KubeWatchEvent::Type::Deleted: {
            std::vector<KeyedEvent> objects = upserts(std::move(event.object));
            m_resourceVersion = std::move(event.resourceVersion);
            if (m_store.erase(objects.front().key) > 0) events.push_back(deletion(m_kind.type, objects.front().key));
            return true;
        }
        }
        return true;
    }

    // A CRD that went away takes its objects with it.
    void forgetAll() {
        std::vector<ClusterEvent> events;
        for (const auto& [key, stored] : m_store) events.push_back(deletion(m_kind.type, key));
        m_store.clear();
        m_path.clear();
        m_synced = false;
        m_source.publish(std::move(events), m_index, 0);
    }

    struct Stored {
        std::string resourceVersion;
        std::uint64_t pass = 0; // the list pass that last saw it
    };

    Impl& m_source;
    const ResourceKind& m_kind;
    std::size_t m_index;
    KubeClient& m_client;
    KubeResponseReader m_reader;
    Backoff m_backoff;
    std::mt19937 m_random{std::random_device{}()};
    std::string m_name;
    std::string m_path; // e.g. /apis/kueue.x-k8s.io/v1beta1/topologies; empty until discovered
    std::string m_resourceVersion;
    std::unordered_map<std::string, Stored> m_store;
    std::uint64_t m_pass = 0;
    bool m_needList = true;
    bool m_synced = false;
};

void KubeSource::Impl::start(std::function<void()> notify) {
    m_notify = std::move(notify);
    m_stopping = false;
    const auto& kinds = resourceKinds();
    // Every client before any thread: the threads read m_clients.
    for (std::size_t i = 0; i < kinds.size(); ++i) m_clients.push_back(std::make_unique<KubeClient>(m_credentials, m_options.limits));
    for (std::size_t i = 0; i < kinds.size(); ++i)
        m_threads.emplace_back([this, i] { Watcher(*this, resourceKinds()[i], i, *m_clients[i]).run(); });
}

KubeSource::KubeSource(KubeConnection connection, ExecEnvironment exec, KubeSourceOptions options)
    : m_impl(std::make_unique<Impl>(std::move(connection), std::move(exec), options)) {}

KubeSource::~KubeSource() = default;

void KubeSource::start(std::function<void()> notify) {
    m_impl->start(std::move(notify));
}

void KubeSource::stop() {
    m_impl->stop();
}

std::vector<ClusterEvent> KubeSource::takeEvents() {
    return m_impl->takeEvents();
}

LiveStatus KubeSource::status() const {
    return m_impl->status();
}

} // namespace topodeck
