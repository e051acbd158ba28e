// readChangePlan and readChangeJournal: plan files and apply journals as operators keep and hand
// over (edited by hand, truncated, of another version), label and object changes alike. What reads writes back to text
// that reads as the same plan or journal and writes the same again; every node name and label in it is one the API
// server would take.
#include "fuzz_support.h"

#include "core/changes/change_journal.h"
#include "core/changes/change_plan_file.h"
#include "core/topology/label_selector.h"

#include <string>

namespace {

void checkChange(const topodeck::LabelChange& change) {
    TOPODECK_FUZZ_CHECK(topodeck::nodeNameProblem(change.node).empty(), "node names are valid");
    TOPODECK_FUZZ_CHECK(topodeck::labelKeyProblem(change.key).empty(), "keys are valid");
    TOPODECK_FUZZ_CHECK(!change.after || topodeck::labelValueProblem(*change.after).empty(), "values are valid");
    TOPODECK_FUZZ_CHECK(change.before != change.after, "every change changes something");
}

void checkObjectChange(const topodeck::ObjectChange& change) {
    TOPODECK_FUZZ_CHECK(change.before || change.after, "every object change has a side");
    for (const auto* side : {&change.before, &change.after})
        if (*side) TOPODECK_FUZZ_CHECK(topodeck::objectName(**side) == change.name, "both sides are the object named");
}

// Read, write, read again: the same thing, and the same text.
template <class Read, class Write> void roundTrip(std::string_view text, const char* source, Read read, Write write) {
    auto first = read(text, source);
    if (!first) {
        TOPODECK_FUZZ_CHECK(first.error().message.starts_with(source), "an error names the file");
        return;
    }
    const std::string written = write(*first);
    auto again = read(written, source);
    TOPODECK_FUZZ_CHECK(again.ok(), "what was read is written so that it reads");
    TOPODECK_FUZZ_CHECK(*again == *first, "and reads as the same");
    TOPODECK_FUZZ_CHECK(write(*again) == written, "writing settles");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    if (auto plan = topodeck::readChangePlan(text, "plan.yaml")) {
        for (const topodeck::LabelChange& change : plan->labelChanges) checkChange(change);
        for (const topodeck::ObjectChange& change : plan->objectChanges) checkObjectChange(change);
    }
    if (auto journal = topodeck::readChangeJournal(text, "journal.yaml")) {
        for (const topodeck::JournalChange& entry : journal->changes) checkChange(entry.change);
        for (const topodeck::JournalObjectChange& entry : journal->objectChanges) checkObjectChange(entry.change);
    }
    roundTrip(text, "plan.yaml", topodeck::readChangePlan, topodeck::writeChangePlan);
    roundTrip(text, "journal.yaml", topodeck::readChangeJournal, topodeck::writeChangeJournal);
    return 0;
}
