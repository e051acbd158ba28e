// decodeBase64: kubeconfig *-data fields. What decodes encodes back to the same bytes.
#include "fuzz_support.h"

#include "core/text/base64.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    topodeck::Result<std::string> bytes = topodeck::decodeBase64(text);
    if (bytes) {
        topodeck::Result<std::string> again = topodeck::decodeBase64(topodeck::encodeBase64(*bytes));
        TOPODECK_FUZZ_CHECK(again.ok() && *again == *bytes, "encoding what was decoded round-trips");
    }
    // Every byte string encodes, and decodes back.
    topodeck::Result<std::string> back = topodeck::decodeBase64(topodeck::encodeBase64(text));
    TOPODECK_FUZZ_CHECK(back.ok() && *back == text, "any bytes round-trip");
    return 0;
}
