#pragma once

// The compiled form of a CEL expression: a flat array of nodes (children by index, so that no
// input can make destruction or copying recurse), the constants the nodes use, and the regular
// expressions compiled once for constant patterns. The parser fills it, the checker resolves names,
// types and functions in place, and after that it is never changed: one ProgramData serves any
// number of threads.

#include "core/cel/cel_value.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace topodeck::cel {

// Limits (Kubernetes and cel-go defaults).
inline constexpr std::size_t kMaxExpressionBytes = 10 * 1024; // CELSelectorExpressionMaxLength
inline constexpr int kMaxRecursionDepth = 250;                // cel-go parser.MaxRecursionDepth
inline constexpr int kMaxNestingDepth = 500;                  // of the tree: bounds evaluation's stack
inline constexpr std::uint64_t kDefaultCostLimit = 1'000'000; // CELSelectorExpressionMaxCost

enum class NodeKind : std::uint8_t {
    Literal,       // constants[a]
    Ident,         // names[name]; aux 1 for a leading '.' (root scope)
    Select,        // a . names[name]
    Index,         // a [ b ]
    Call,          // names[name](args); aux 1 when receiver-style: args[0] is the receiver
    Has,           // has(a . names[name])
    Not,           // ! a
    Negate,        // - a
    And,           // args, n-ary
    Or,            // args, n-ary
    Conditional,   // a ? b : c
    CreateList,    // args
    CreateMap,     // args: key, value, key, value, ...
    Comprehension, // aux ComprehensionKind; range a, variable names[name], b predicate, c transform
    Bind,          // cel.bind(names[name], a, b)
    // Resolved by the checker:
    Variable,      // a comprehension or bind variable: slots[slot]
    DeviceRoot,    // the `device` variable
    DeviceDriver,  // device.driver
    DeviceMulti,   // device.allowMultipleAllocations
    DeviceDomains, // device.attributes (aux 0) or device.capacity (aux 1)
    DeviceDomain,  // device.attributes[names[name]] (aux 0) or capacity (aux 1), a constant domain
    DeviceEntry,   // device.attributes[names[name]][names[name2]] (aux 0) or capacity (aux 1)
};

enum class ComprehensionKind : std::uint8_t { All, Exists, ExistsOne, Map, MapFilter, Filter };

struct Node {
    NodeKind kind = NodeKind::Literal;
    std::uint8_t aux = 0;
    std::uint16_t fn = 0;    // the function a Call resolved to (cel_functions.h)
    std::uint16_t depth = 1; // of the subtree
    std::uint32_t pos = 0;   // byte offset in the source
    std::int32_t a = -1, b = -1, c = -1;
    std::int32_t first = 0, count = 0; // arguments: args[first .. first + count)
    std::int32_t name = -1, name2 = -1;
    std::int32_t slot = -1;   // Variable, Comprehension and Bind: the variable's slot
    std::int32_t regex = -1;  // a Call whose pattern is a constant: regexes[regex]
    std::int32_t folded = -1; // a Call the checker evaluated: constants[folded]
    std::uint32_t cost = 0;   // what a folded call costs, as evaluating it would
    std::uint32_t type = 0;   // static type (cel_checker.h)
};

struct ProgramData {
    std::string source;
    std::vector<Node> nodes;
    std::vector<std::int32_t> args;
    std::vector<std::string> names;
    std::vector<Value> constants;
    // Storage the constants borrow from; deques keep addresses stable as they grow.
    std::deque<std::string> texts;
    std::deque<Quantity> quantities;
    std::deque<Version> versions;
    std::deque<ListData> lists;
    std::deque<MapData> maps;
    std::vector<std::shared_ptr<const re2::RE2>> regexes;
    std::int32_t root = -1;
    std::int32_t slots = 0;
    std::uint64_t costLimit = kDefaultCostLimit;

    const Node& node(std::int32_t i) const { return nodes[static_cast<std::size_t>(i)]; }
    Node& node(std::int32_t i) { return nodes[static_cast<std::size_t>(i)]; }
    std::int32_t arg(const Node& n, std::int32_t i) const { return args[static_cast<std::size_t>(n.first + i)]; }
    std::string_view nameOf(std::int32_t i) const { return names[static_cast<std::size_t>(i)]; }
    std::int32_t addConstant(Value v) {
        constants.push_back(std::move(v));
        return static_cast<std::int32_t>(constants.size() - 1);
    }
    std::int32_t addName(std::string text) {
        names.push_back(std::move(text));
        return static_cast<std::int32_t>(names.size() - 1);
    }
};

} // namespace topodeck::cel
