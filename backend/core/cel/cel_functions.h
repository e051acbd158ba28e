#pragma once

// The functions a DRA selector may call, as Kubernetes' CEL environment declares them:
//  - CEL's standard definitions (cel-spec langdef.md): operators, size, contains, startsWith,
//    endsWith, matches, conversions int/uint/double/string/bool/bytes/dyn;
//  - cel-go's strings extension at version 2 (ext.Strings, as k8s.io/apiserver's base environment
//    enables it): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split,
//    substring, trim, join;
//  - Kubernetes' libraries (k8s.io/apiserver/pkg/cel/library): regex find/findAll; quantity,
//    isQuantity and Quantity's sign, isGreaterThan, isLessThan, compareTo, add, sub, asInteger,
//    asApproximateFloat, isInteger; semver, isSemver and Semver's major, minor, patch,
//    isGreaterThan, isLessThan, compareTo.
// Each function has overload signatures for the checker and one runtime entry that dispatches on
// its arguments' kinds. Costs follow cel-go's runtime cost model (interpreter/runtimecost.go)
// and Kubernetes' library CostEstimator.

#include "core/cel/cel_value.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace re2 {
class RE2;
}

namespace topodeck::cel {

enum class Fn : std::uint16_t {
    None,
    // Operators.
    Equals,
    NotEquals,
    Less,
    LessEquals,
    Greater,
    GreaterEquals,
    In,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    // Standard functions.
    Size,
    Contains,
    StartsWith,
    EndsWith,
    Matches,
    ToInt,
    ToUint,
    ToDouble,
    ToString,
    ToBool,
    ToBytes,
    Dyn,
    // Strings extension.
    CharAt,
    IndexOf,
    LastIndexOf,
    LowerAscii,
    UpperAscii,
    Replace,
    Split,
    Substring,
    Trim,
    Join,
    // Kubernetes regex.
    Find,
    FindAll,
    // Kubernetes quantity.
    QuantityOf,
    IsQuantity,
    Sign,
    IsGreaterThan,
    IsLessThan,
    CompareTo,
    AddTo,
    SubtractFrom,
    AsInteger,
    AsApproximateFloat,
    IsInteger,
    // Kubernetes semver.
    SemverOf,
    IsSemver,
    Major,
    Minor,
    Patch,
};

// The function a call's name denotes (operators by their cel-go names: "_==_", "@in", ...), or
// Fn::None.
Fn functionNamed(std::string_view name);
std::string_view functionName(Fn fn);
// Names CEL or Kubernetes define that this evaluator does not implement (for messages).
bool isKnownUnsupported(std::string_view name);

// Static types of the checker's signatures.
enum class Ty : std::uint8_t { Dyn, Null, Bool, Int, Uint, Double, String, Bytes, List, Map, Quantity, Semver, Device };

struct Signature {
    Fn fn;
    bool global; // callable as f(x, ...)
    bool member; // callable as x.f(...); the receiver is the first parameter
    std::uint8_t arity;
    std::array<Ty, 4> params;
    Ty result;
    Ty element = Ty::Dyn; // of a List result
};
std::span<const Signature> signaturesOf(Fn fn);

// What a call needs besides its arguments: the evaluation's meter (the cost budget, which the
// functions also charge for what they build) and the regex compiled for a constant pattern.
struct CallContext {
    Meter& meter;
    const re2::RE2* regex = nullptr;
};

// The cost cel-go charges for the call, known before it runs (so that an expensive call is
// refused before it starts).
std::uint64_t callCost(Fn fn, std::span<const Value> args);

// Calls the function; an unsupported combination of kinds is the error "no such overload: ...".
Value invoke(Fn fn, std::span<const Value> args, CallContext& context);

// "no such overload: size(int)".
Value noSuchOverload(std::string_view function, std::span<const Value> args);

// Regular expressions as Kubernetes and cel-go read them (RE2 syntax, UTF-8). A pattern that does
// not compile gives nullptr and the reason.
std::shared_ptr<const re2::RE2> compileRegex(std::string_view pattern, std::string& problem);

// Library parts (cel_library.cpp): the strings extension, regex, quantity and semver functions.
Value invokeLibrary(Fn fn, std::span<const Value> args, CallContext& context);

// Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go's string(double) uses: "123.456",
// "-0.0045", "1e+12".
std::string formatDouble(double d);

} // namespace topodeck::cel
