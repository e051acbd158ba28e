#pragma once

// Kubernetes DRA device selectors (DeviceClass spec.selectors[].cel.expression and ResourceClaim
// request selectors): the part of CEL they use, compiled once and evaluated per device.
//
//   Result<Program> p = compile("device.driver == 'gpu.nvidia.com' && "
//                               "device.attributes['gpu.nvidia.com'].type == 'gpu'");
//   Result<bool> m = matches(*p, device);   // an evaluation error is an error Result
//
// The environment is Kubernetes' (k8s.io/dynamic-resource-allocation cel/compile.go):
// device.driver (string), device.attributes["<domain>"].<id> (int, bool, string or semver),
// device.capacity["<domain>"].<id> (Quantity), device.allowMultipleAllocations (bool). An
// unknown domain is an empty map; reading a missing id is the error "no such key: <id>", so
// selectors test with has() or `in` first.
//
// Supported: CEL's literals (int, uint, double, string with escapes, raw and triple-quoted,
// bytes, bool, null, lists, maps), field selection and indexing, has(), ! - && || ?: with CEL's
// error absorption, == != < <= > >= with heterogeneous equality and cross-numeric ordering,
// + - * / % with overflow and division errors, `in`, all, exists, exists_one, map, filter,
// cel.bind; the functions of cel_functions.h (strings, regex, conversions, quantity, semver).
// Refused at compile time, naming the construct: other functions ("unsupported: function
// 'duration'"), type() and type denotations, message construction, optional syntax, two-variable
// comprehensions. Limits: 10 KiB of expression, 250 levels of parser recursion, 500 levels of
// nesting, and a runtime cost budget (1,000,000, as CELSelectorExpressionMaxCost).
//
// A Program is immutable and may be shared by any number of threads.

#include "core/cel/cel_value.h"
#include "core/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::cel {

struct ProgramData;

struct CompileOptions {
    bool requireBool = true;             // a selector: the result is bool (or dynamic)
    std::uint64_t costLimit = 1'000'000; // per evaluation
};

class Program {
public:
    Program() = default;

    const std::string& expression() const;
    bool empty() const { return !m_data; }
    // The compiled form, for the evaluator and fieldsRead.
    const ProgramData& data() const { return *m_data; }

private:
    friend Result<Program> compile(std::string_view expression, const CompileOptions& options);
    std::shared_ptr<const ProgramData> m_data;
};

// Parses and checks; the error says what is wrong and where ("1:14: ...").
Result<Program> compile(std::string_view expression, const CompileOptions& options = {});

// Whether the device matches; an evaluation error ("no such key: type", "no such overload: ...",
// "operation cancelled: actual cost limit exceeded") or a non-bool result is an error Result.
Result<bool> matches(const Program& program, const DeviceView& device);

// The value of the expression for the device (of any type when compiled without requireBool),
// or an error value, and the cost the evaluation counted. The value may borrow from the device
// and the program: use it while both live.
struct Evaluation {
    Value value;
    std::uint64_t cost = 0;

    bool ok() const { return !value.isError(); }
    std::string_view error() const { return value.isError() ? value.text() : std::string_view(); }
};
Evaluation evaluate(const Program& program, const DeviceView& device);

// What the expression reads of a device, so that callers can cache results per distinct values:
// attribute and capacity names qualified "domain/id" (sorted, each once; a device's bare names
// are in its driver's domain), whether it reads the driver or allowMultipleAllocations, and
// whether it reads more than can be told statically (iterates or indexes the maps with computed
// keys, tests a domain's presence, passes the device or a map around): then every field counts.
struct FieldUse {
    std::vector<std::string> attributes;
    std::vector<std::string> capacity;
    bool driver = false;
    bool allowMultipleAllocations = false;
    bool dynamic = false;
};
FieldUse fieldsRead(const Program& program);

} // namespace topodeck::cel
