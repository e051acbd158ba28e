#pragma once

// CEL values (cel-spec langdef.md "Values"): null, bool, int, uint, double, string, bytes, list,
// map, and the Kubernetes types Quantity and Semver; plus the device a selector reads and its
// attribute and capacity maps, which are views of the caller's DeviceView (never copied).
//
// A Value is small and cheap to copy. Scalars are held inline; strings, lists, maps, quantities
// and versions are either borrowed (from the program's constants or the device, which outlive an
// evaluation) or owned through a shared pointer when an evaluation makes them. An evaluation error
// is a Value too (kind Error), so that && and || can absorb it as CEL requires.

#include "core/cel/device_view.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::cel {

enum class Kind : std::uint8_t {
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List,
    Map,
    Quantity,
    Semver,
    Device,           // the `device` variable
    AttributeDomains, // device.attributes: domain -> AttributeMap
    CapacityDomains,  // device.capacity: domain -> CapacityMap
    AttributeMap,     // device.attributes["<domain>"]: id -> value
    CapacityMap,      // device.capacity["<domain>"]: id -> Quantity
    Error,
};

// The CEL type name of a kind, as messages show it: "int", "string", "map", "kubernetes.Quantity".
std::string_view kindName(Kind kind);

struct ListData;
struct MapData;

class Value {
public:
    Value() = default; // null

    static Value boolean(bool b);
    static Value integer(std::int64_t i);
    static Value uinteger(std::uint64_t u);
    static Value real(double d);
    // Borrowed text must outlive the value (program constants, device data).
    static Value string(std::string_view borrowed);
    static Value string(std::string owned);
    static Value bytes(std::string_view borrowed);
    static Value bytes(std::string owned);
    static Value list(const ListData* borrowed);
    static Value list(std::shared_ptr<const ListData> owned);
    static Value map(const MapData* borrowed);
    static Value map(std::shared_ptr<const MapData> owned);
    static Value quantity(const Quantity* borrowed);
    static Value quantity(const Quantity& owned);
    static Value semver(const Version* borrowed);
    static Value semver(Version owned);
    static Value device(const DeviceView* device);
    static Value domains(Kind kind, const DeviceView* device); // AttributeDomains or CapacityDomains
    static Value domainMap(Kind kind, const DeviceView* device, std::string_view domain);
    // The same for a computed domain name: the map keeps the name's text alive.
    static Value domainMap(Kind kind, const DeviceView* device, const Value& domain);
    // An evaluation error; `cancelled` marks the cost limit, which no operator may absorb.
    static Value error(std::string message, bool cancelled = false);
    static Value staticError(std::string_view message); // a literal that lives forever

    // A part of this string's text (`part` lies within text()), kept alive as this value is: the
    // parts of a split or a match cost no copy.
    Value slice(std::string_view part) const {
        Value v = *this;
        v.m_text = part;
        return v;
    }

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind == Kind::Error; }
    bool isCancelled() const { return m_kind == Kind::Error && m_scalar.b; }
    bool isNumber() const { return m_kind == Kind::Int || m_kind == Kind::Uint || m_kind == Kind::Double; }
    bool isMapLike() const {
        return m_kind == Kind::Map || (m_kind >= Kind::AttributeDomains && m_kind <= Kind::CapacityMap);
    }

    bool asBool() const { return m_scalar.b; }
    std::int64_t asInt() const { return m_scalar.i; }
    std::uint64_t asUint() const { return m_scalar.u; }
    double asDouble() const { return m_scalar.d; }
    // String and bytes contents, an error's message, a domain map's domain.
    std::string_view text() const { return m_text; }
    const ListData& asList() const { return *static_cast<const ListData*>(m_scalar.p); }
    const MapData& asMap() const { return *static_cast<const MapData*>(m_scalar.p); }
    const Quantity& asQuantity() const { return *static_cast<const Quantity*>(m_scalar.p); }
    const Version& asSemver() const { return *static_cast<const Version*>(m_scalar.p); }
    const DeviceView& asDevice() const { return *static_cast<const DeviceView*>(m_scalar.p); }

private:
    Kind m_kind = Kind::Null;
    union Scalar {
        bool b;
        std::int64_t i;
        std::uint64_t u;
        double d;
        const void* p;
    } m_scalar{};
    std::string_view m_text;
    std::shared_ptr<const void> m_owner; // keeps an evaluation's own payload alive
};

struct ListData {
    std::vector<Value> items;
};

// Map entries sorted by key (keyOrder), so that lookups are logarithmic. Keys are bool, int,
// uint or string; an int and a uint of the same value are the same key.
struct MapData {
    std::vector<std::pair<Value, Value>> entries;
};

// Counts the work of operations whose time grows with their operands (deep equality, list
// membership, copying), so that an evaluation's cost bounds its time whatever the values.
struct Meter {
    std::uint64_t used = 0;
    std::uint64_t limit = UINT64_MAX;
    bool spend(std::uint64_t units) {
        used = units > UINT64_MAX - used ? UINT64_MAX : used + units;
        return used <= limit;
    }
    bool exhausted() const { return used > limit; }
};

// CEL's heterogeneous runtime equality (langdef "Equality"): numbers compare across int, uint and
// double on one number line (NaN equals nothing), lists element-wise, maps by key set and values,
// quantities by amount, versions by precedence; values of different types are unequal. When the
// meter runs out the answer is false and meter.exhausted() is set.
bool equal(const Value& a, const Value& b, Meter& meter);

// Ordering of int, uint, double (across types), string, bytes and bool: -1, 0, 1, or nullopt
// when the kinds cannot be ordered (or a NaN is involved: every comparison with NaN is false).
std::optional<int> compareOrdered(const Value& a, const Value& b);
bool orderable(Kind a, Kind b);

// Map keys: bool, int, uint, string. keyOrder is the total order MapData keeps.
bool isKeyKind(Kind kind);
int keyOrder(const Value& a, const Value& b);

// Maps and the device's map views alike: size, lookup (a double key finds an integral int or
// uint key), and keys in iteration order.
std::size_t mapSize(const Value& map);
// nullptr-like Value of kind Null with found=false when the key is absent.
Value mapFind(const Value& map, const Value& key, bool& found);
void mapKeys(const Value& map, std::vector<Value>& out);

// What a device-map operation costs beyond CEL's constant map access: nothing for devices of up to
// kFreeScanEntries attributes and capacities (Kubernetes allows 32), a quarter unit per entry
// beyond, so that the cost budget bounds the time also for devices far larger than the API allows.
inline constexpr std::size_t kFreeScanEntries = 32;
std::uint64_t scanSurcharge(const DeviceView& device);
std::uint64_t scanSurcharge(const Value& v); // 0 unless v is one of the device's maps

// An attribute's value as CEL sees it (int, bool, string, or Semver for a version), borrowed.
Value attributeValue(const AttributeValue& value);

// The size CEL's cost model uses: code points of a string (bytes here: an upper bound), bytes of
// a byte string, entries of a list or map; 1 for everything else.
std::uint64_t costSize(const Value& v);

// A readable CEL-like rendering for messages and tests: 42, 42u, 1.5, "text", b"\x00",
// [1, 2], {"k": 1}, quantity("10Gi"), semver("1.2.3"), device.
std::string display(const Value& v);
// The same, cut to about `limit` bytes ("..." marks the cut): for values quoted in messages.
std::string shortDisplay(const Value& v, std::size_t limit = 64);

} // namespace topodeck::cel
