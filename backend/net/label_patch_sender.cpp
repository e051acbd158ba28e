#include "net/label_patch_sender.h"

#include "net/kube_client.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

namespace topodeck {

PatchSender kubePatchSender(std::shared_ptr<KubeCredentials> credentials, KubePatchOptions options) {
    // One client per connection, made on first use and kept: a batch reuses the last one's
    // connections (and TLS sessions).
    auto clients = std::make_shared<std::vector<std::unique_ptr<KubeClient>>>();
    return [credentials = std::move(credentials), options = std::move(options),
            clients](std::span<const NodePatch> patches, bool dryRun) {
        std::vector<PatchAnswer> answers(patches.size());
        const std::size_t workers = std::min<std::size_t>(std::max(1, options.parallel), patches.size());
        while (clients->size() < workers) clients->push_back(std::make_unique<KubeClient>(credentials));
        // dryRun first: a request line that starts "?fieldManager" is one that changes the node.
        const std::string query = std::string(dryRun ? "?dryRun=All&" : "?") + "fieldManager=" + options.fieldManager;
        std::atomic<std::size_t> next{0};
        auto work = [&](KubeClient& client) {
            for (std::size_t i = next++; i < patches.size(); i = next++) {
                Result<HttpResponse> response = client.send("PATCH", "/api/v1/nodes/" + patches[i].node + query,
                                                            "application/json-patch+json", patches[i].body,
                                                            options.timeout);
                if (!response)
                    answers[i] = {0, response.error().message};
                else if (response->status < 200 || response->status >= 300)
                    answers[i] = {response->status, describeKubeStatus(response->status, response->body)};
                else
                    answers[i] = {response->status, {}};
            }
        };
        std::vector<std::thread> threads;
        for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work, std::ref(*(*clients)[w]));
        if (workers > 0) work(*(*clients)[0]);
        for (std::thread& thread : threads) thread.join();
        return answers;
    };
}

namespace {

std::vector<std::string> knownVersions(ObjectKind kind) {
    switch (kind) {
    case ObjectKind::KueueTopology:
        return {"v1beta2", "v1beta1", "v1alpha1"};
    case ObjectKind::ResourceFlavor:
        return {"v1beta2", "v1beta1"};
    case ObjectKind::HyperNode:
    case ObjectKind::KaiTopology:
        return {"v1alpha1"};
    }
    return {};
}

} // namespace

ObjectSender kubeObjectSender(std::shared_ptr<KubeCredentials> credentials, KubePatchOptions options) {
    struct Connection {
        explicit Connection(std::shared_ptr<KubeCredentials> credentials) : client(std::move(credentials)) {}
        KubeClient client;
        std::map<std::string, bool> served; // "group/version" -> whether the server serves it
    };
    auto connection = std::make_shared<Connection>(std::move(credentials));
    return [connection, options = std::move(options)](const ObjectChange& change, bool dryRun) -> ObjectAnswer {
        auto serves = [&](const std::string& groupVersion) -> Result<bool> {
            if (auto it = connection->served.find(groupVersion); it != connection->served.end()) return it->second;
            Result<HttpResponse> response = connection->client.get("/apis/" + groupVersion, options.timeout);
            if (!response) return response.error();
            if (response->status != 200 && response->status != 404)
                return Error{describeKubeStatus(response->status, response->body)};
            return connection->served[groupVersion] = response->status == 200;
        };
        ObjectChange sent = change;
        std::vector<std::string> versions = knownVersions(change.kind);
        if (!change.version.empty()) versions.insert(versions.begin(), change.version);
        bool found = false;
        for (const std::string& version : versions) {
            sent.version = version;
            Result<bool> served = serves(sent.apiVersion());
            if (!served) return {{0, served.error().message}, {}};
            if ((found = *served)) break;
        }
        if (!found)
            return {{404, "the server does not serve " + std::string(objectGroup(change.kind)) + " " +
                              std::string(objectPlural(change.kind)) + ": are its CRDs installed?"},
                    {}};
        const ObjectRequest request = objectRequest(sent, dryRun, options.fieldManager);
        Result<HttpResponse> response = connection->client.send(request.method, request.pathAndQuery,
                                                                request.contentType, request.body, options.timeout);
        if (!response) return {{0, response.error().message}, {}};
        if (response->status < 200 || response->status >= 300)
            return {{response->status, describeKubeStatus(response->status, response->body)}, {}};
        return {{response->status, {}}, readObjectResourceVersion(response->body)};
    };
}

} // namespace topodeck
