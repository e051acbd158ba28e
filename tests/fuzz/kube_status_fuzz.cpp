// readKubeStatus: an API server's error body (a Status object, or anything a proxy sends), and the
// message KubeClient makes of it.
#include "fuzz_support.h"

#include "core/formats/kube_response_reader.h"
#include "net/kube_client.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body = topodeck::fuzz::text(data, size);
    std::optional<topodeck::KubeStatus> status = topodeck::readKubeStatus(body);
    for (long code : {401L, 403L, 404L, 410L, 500L}) {
        const std::string message = topodeck::describeKubeStatus(code, body);
        TOPODECK_FUZZ_CHECK(!message.empty(), "a message for every status");
    }
    (void)status;
    return 0;
}
