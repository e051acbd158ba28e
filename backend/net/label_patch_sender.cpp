#include "net/label_patch_sender.h"

#include "net/kube_client.h"

#include <algorithm>
#include <atomic>
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

} // namespace topodeck
