// readSlurmNodes: `sinfo --json` and slurmrestd's nodes reply, every version's shape (v0.0.36 to
// v0.0.43), then the model a Slurm source builds from them.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string json(topodeck::fuzz::text(data, size));
    topodeck::Result<topodeck::SlurmNodesReply> reply = topodeck::readSlurmNodes(json, "fuzz nodes.json");
    TOPODECK_FUZZ_CHECK(json == topodeck::fuzz::text(data, size), "the reader leaves the text as it was");
    if (!reply) {
        TOPODECK_FUZZ_CHECK(!reply.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    topodeck::fuzz::showSlurm(nullptr, std::move(reply->nodes), {});
    return 0;
}
