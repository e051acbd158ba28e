// expandHostlist: Slurm hostlists ("gpu-[001-004,007],login1"). The expansion is bounded by the
// reader (at most 2^18 names); what expands compresses to a hostlist that expands to the same names.
#include "fuzz_support.h"

#include "core/text/hostlist.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<std::vector<std::string>> names = topodeck::expandHostlist(topodeck::fuzz::text(data, size));
    if (!names) {
        TOPODECK_FUZZ_CHECK(!names.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    TOPODECK_FUZZ_CHECK(names->size() <= (std::size_t{1} << 18), "the expansion is bounded");
    if (names->size() > 4096) return 0; // the round trip below is for the shapes, not the sizes
    for (const std::string& name : *names)
        if (name.empty() || name.find_first_of(",[] \t\n\r\f\v") != std::string::npos) return 0; // not a name compress can write
    const std::string compressed = topodeck::compressHostlist(*names);
    topodeck::Result<std::vector<std::string>> again = topodeck::expandHostlist(compressed);
    TOPODECK_FUZZ_CHECK(again.ok(), "a compressed hostlist expands");
    TOPODECK_FUZZ_CHECK(*again == *names, "compressing and expanding gives the same names");
    return 0;
}
