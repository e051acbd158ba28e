// readSlurmJwt: a slurmrestd token (scontrol token), read but not verified.
#include "fuzz_support.h"

#include "net/slurm_rest_client.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::SlurmJwtClaims> claims = topodeck::readSlurmJwt(topodeck::fuzz::text(data, size));
    if (!claims) TOPODECK_FUZZ_CHECK(!claims.error().message.empty(), "an error says what is wrong");
    return 0;
}
