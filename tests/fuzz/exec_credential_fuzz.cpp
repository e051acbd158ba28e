// parseExecCredential: what a client-go credential plugin printed, for both apiVersions, and
// parseRfc3339 on the same text (status.expirationTimestamp's format).
#include "fuzz_support.h"

#include "net/exec_credential.h"

#include <chrono>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    for (std::string_view version : {"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}) {
        topodeck::Result<topodeck::ExecCredential> credential = topodeck::parseExecCredential(text, version);
        if (!credential) continue;
        TOPODECK_FUZZ_CHECK(!credential->token.empty() ||
                                (!credential->clientCertificateData.empty() && !credential->clientKeyData.empty()),
                            "a credential has a token or a certificate and key");
        (void)credential->expired(std::chrono::system_clock::now());
    }
    (void)topodeck::parseRfc3339(text);
    return 0;
}
