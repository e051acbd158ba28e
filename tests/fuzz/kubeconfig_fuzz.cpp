// parseKubeconfig, then resolveKubeContext on each context (and the current one), as
// `topodeckctl --context` and the connect dialog do.
// Relative paths in the file resolve under a directory that does not exist; a context naming an
// absolute path elsewhere is not resolved, since resolving reads the files it names (a fuzzed
// "/dev/zero" would only fuzz the machine).
#include "fuzz_support.h"

#include "net/kubeconfig.h"

#include <string>

namespace {

constexpr std::string_view kBase = "/nonexistent-topodeck-fuzz/";

bool onlyPathsUnderBase(const topodeck::Kubeconfig& config) {
    const auto ok = [](const std::string& path) { return path.empty() || std::string_view(path).starts_with(kBase); };
    for (const auto& [name, cluster] : config.clusters)
        if (!ok(cluster.certificateAuthority)) return false;
    for (const auto& [name, user] : config.users)
        if (!ok(user.tokenFile) || !ok(user.clientCertificate) || !ok(user.clientKey)) return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::Kubeconfig> config =
        topodeck::parseKubeconfig(topodeck::fuzz::text(data, size), std::string(kBase) + "config");
    if (!config) {
        TOPODECK_FUZZ_CHECK(!config.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    if (!onlyPathsUnderBase(*config)) return 0;
    if (config->files.empty()) config->files.push_back(std::string(kBase) + "config");
    (void)topodeck::resolveKubeContext(*config, "");
    for (const std::string& name : config->contextNames()) {
        topodeck::Result<topodeck::KubeConnection> connection = topodeck::resolveKubeContext(*config, name);
        if (connection) (void)connection->secure();
    }
    return 0;
}
