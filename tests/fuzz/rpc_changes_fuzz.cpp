// decodeChanges: the object changes a daemon sends (rpc/object_change.h), then the state they
// build. The input is records separated by 0x1e: a kind byte, a deleted byte ('1' deleted), the
// name up to a newline, then the object's text (the fields of topodeck.v1.ObjectChange).
#include "fuzz_support.h"

#include "core/model/cluster_state.h"
#include "rpc/object_change.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input = topodeck::fuzz::text(data, size);
    std::vector<topodeck::rpc::ObjectChangePtr> changes;
    while (!input.empty() && changes.size() < 256) {
        const std::size_t end = std::min(input.find('\x1e'), input.size());
        std::string_view record = input.substr(0, end);
        input.remove_prefix(std::min(end + 1, input.size()));
        if (record.size() < 2) continue;
        topodeck::rpc::ObjectChange change;
        change.kind = static_cast<topodeck::rpc::ObjectKind>(static_cast<std::uint8_t>(record[0]) % 16);
        change.deleted = record[1] == '1';
        record.remove_prefix(2);
        const std::size_t newline = std::min(record.find('\n'), record.size());
        change.name = std::string(record.substr(0, newline));
        change.object = std::string(record.substr(std::min(newline + 1, record.size())));
        changes.push_back(std::make_shared<const topodeck::rpc::ObjectChange>(std::move(change)));
    }
    auto events = topodeck::rpc::decodeChanges(changes);
    if (!events) {
        TOPODECK_FUZZ_CHECK(!events.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    topodeck::ClusterState state;
    for (topodeck::ClusterEvent& event : *events) (void)state.apply(std::move(event));
    return 0;
}
