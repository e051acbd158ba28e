// pickSlurmApiVersion: slurmrestd's /openapi (22.05) or /openapi/v3 (23.02+) document.
#include "fuzz_support.h"

#include "net/slurm_rest_client.h"

#include <algorithm>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string json(topodeck::fuzz::text(data, size));
    topodeck::Result<std::string> version = topodeck::pickSlurmApiVersion(json);
    if (!version) return 0;
    const auto& supported = topodeck::supportedSlurmApiVersions();
    TOPODECK_FUZZ_CHECK(std::find(supported.begin(), supported.end(), *version) != supported.end(),
                        "the version picked is one we read");
    return 0;
}
