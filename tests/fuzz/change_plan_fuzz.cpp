// readChangePlan: plan files as operators keep and hand over (edited by hand, truncated, of
// another version). What reads writes back to text that reads as the same plan and writes the
// same again; every label in it is one the API server would take.
#include "fuzz_support.h"

#include "core/changes/change_plan_file.h"
#include "core/label_selector.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    topodeck::Result<topodeck::ChangePlan> plan = topodeck::readChangePlan(text, "plan.yaml");
    if (!plan) {
        TOPODECK_FUZZ_CHECK(plan.error().message.starts_with("plan.yaml"), "an error names the file");
        return 0;
    }
    for (const topodeck::LabelChange& change : plan->labelChanges) {
        TOPODECK_FUZZ_CHECK(topodeck::labelKeyProblem(change.key).empty(), "keys are valid");
        TOPODECK_FUZZ_CHECK(!change.after || topodeck::labelValueProblem(*change.after).empty(), "values are valid");
        TOPODECK_FUZZ_CHECK(change.before != change.after, "every change changes something");
    }
    const std::string written = topodeck::writeChangePlan(*plan);
    topodeck::Result<topodeck::ChangePlan> again = topodeck::readChangePlan(written, "plan.yaml");
    TOPODECK_FUZZ_CHECK(again.ok(), "what was read is written so that it reads");
    TOPODECK_FUZZ_CHECK(*again == *plan, "and reads as the same plan");
    TOPODECK_FUZZ_CHECK(topodeck::writeChangePlan(*again) == written, "writing settles");
    return 0;
}
