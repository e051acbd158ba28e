// Quantity::parse: Kubernetes resource quantities. What parses prints canonically, the canonical
// form parses back to the same amount, and printing that settles.
#include "fuzz_support.h"

#include "core/values/quantity.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    topodeck::Result<topodeck::Quantity> quantity = topodeck::Quantity::parse(text);
    if (!quantity) {
        TOPODECK_FUZZ_CHECK(!quantity.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    const std::string canonical = quantity->toString();
    topodeck::Result<topodeck::Quantity> again = topodeck::Quantity::parse(canonical);
    TOPODECK_FUZZ_CHECK(again.ok(), "the canonical form parses");
    TOPODECK_FUZZ_CHECK(*again == *quantity, "the canonical form is the same amount");
    // Not always the same text: like Kubernetes, 312.5Ki prints as 320000 (BinarySI without a
    // suffix), which reads back as DecimalSI and prints as 320k; from there it holds.
    const std::string second = again->toString();
    topodeck::Result<topodeck::Quantity> third = topodeck::Quantity::parse(second);
    TOPODECK_FUZZ_CHECK(third.ok() && *third == *quantity && third->toString() == second,
                        "printing what the canonical form reads settles");
    (void)quantity->value();
    (void)quantity->milliValue();
    topodeck::Quantity sum = *quantity + *quantity;
    sum -= *quantity;
    (void)sum.toString();
    return 0;
}
