// LabelSelector::parse: Kubernetes label selectors as the filter bar takes them. What parses
// prints a canonical form that parses back to the same selector and prints the same again, and
// matching an object never depends on anything but its labels.
#include "fuzz_support.h"

#include "core/topology/label_selector.h"

#include <string>

namespace {

// A few nodes under a two-level hierarchy with an NVLink key, for comparing the index's shortcut
// with reading every node's labels.
struct SmallCluster {
    topodeck::TopologyIndex index;
    std::vector<std::shared_ptr<const topodeck::Node>> nodesById;
};

const SmallCluster& smallCluster() {
    static const SmallCluster cluster = [] {
        topodeck::ClusterState state;
        const char* racks[] = {"a", "b", "", "in"};
        for (int i = 0; i < 12; ++i) {
            topodeck::Node node;
            node.name = "n" + std::to_string(i);
            if (i % 5 != 4) node.setLabel("x", i < 6 ? "a" : "b");
            if (*racks[i % 4]) node.setLabel("y", racks[i % 4]);
            if (i % 3 != 0) node.setLabel("z", std::to_string(i % 3));
            if (i % 2 == 0) node.setLabel("a", std::to_string(i));
            (void)state.apply(topodeck::NodeUpserted{std::move(node)});
        }
        topodeck::TopologySpec spec = topodeck::TopologySpec::fromLabelKeys({"x", "y"});
        spec.nvlinkLabel = "z";
        SmallCluster c;
        c.index = topodeck::TopologyIndex::build(state, spec);
        c.nodesById.resize(state.nodeSlots());
        for (topodeck::NodeId id = 0; id < state.nodeSlots(); ++id) c.nodesById[id] = state.record(id).node;
        return c;
    }();
    return cluster;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = topodeck::fuzz::text(data, size);
    topodeck::Result<topodeck::LabelSelector> selector = topodeck::LabelSelector::parse(text);
    if (!selector) {
        const std::string& message = selector.error().message;
        TOPODECK_FUZZ_CHECK(!message.empty(), "an error says what is wrong");
        TOPODECK_FUZZ_CHECK(message.size() < 600, "an error quotes only the start of a long literal");
        return 0;
    }
    const std::string canonical = selector->toString();
    topodeck::Result<topodeck::LabelSelector> again = topodeck::LabelSelector::parse(canonical);
    TOPODECK_FUZZ_CHECK(again.ok(), "the canonical form parses");
    TOPODECK_FUZZ_CHECK(*again == *selector, "the canonical form is the same selector");
    TOPODECK_FUZZ_CHECK(again->toString() == canonical, "printing settles");
    TOPODECK_FUZZ_CHECK(selector->empty() == canonical.empty(), "only the empty selector prints empty");

    // Labels made from the selector's own keys and values, so that matching takes every branch.
    topodeck::Node node;
    for (const topodeck::LabelRequirement& r : selector->requirements()) {
        TOPODECK_FUZZ_CHECK(topodeck::labelKeyProblem(r.key).empty(), "keys are valid");
        for (const std::string& value : r.values)
            TOPODECK_FUZZ_CHECK(topodeck::labelValueProblem(value).empty(), "values are valid");
        if (r.key.size() % 2 == 0) node.setLabel(r.key, r.values.empty() ? std::string() : r.values.front());
    }
    const bool match = selector->matches(node);
    bool each = true;
    for (const topodeck::LabelRequirement& r : selector->requirements()) each = each && r.matches(node.label(r.key));
    TOPODECK_FUZZ_CHECK(match == each, "a selector holds when each requirement does");
    TOPODECK_FUZZ_CHECK(selector->matches(topodeck::Node()) == again->matches(topodeck::Node()),
                        "the canonical form matches alike");
    const SmallCluster& cluster = smallCluster();
    TOPODECK_FUZZ_CHECK(topodeck::matchNodes(*selector, cluster.nodesById, cluster.index) ==
                            topodeck::matchNodes(*selector, cluster.nodesById),
                        "the index's shortcut agrees with every node's labels");
    return 0;
}
