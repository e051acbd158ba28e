#include "core/cel/cel_checker.h"

#include "core/cel/cel_functions.h"
#include "core/cel/cel_lexer.h"

#include <algorithm>
#include <optional>

namespace topodeck::cel {

namespace {

using TypeId = std::uint32_t;

// Static types: the primitives at the index of their Ty, then lists and maps by their parameters.
class Types {
public:
    Types() {
        for (int t = 0; t <= static_cast<int>(Ty::Device); ++t) m_table.push_back({static_cast<Ty>(t), 0, 0});
    }
    static TypeId of(Ty t) { return static_cast<TypeId>(t); }
    TypeId list(TypeId element) { return find({Ty::List, element, 0}); }
    TypeId map(TypeId key, TypeId value) { return find({Ty::Map, key, value}); }
    Ty kind(TypeId t) const { return m_table[t].kind; }
    TypeId element(TypeId t) const { return m_table[t].a; } // of a list; the key of a map
    TypeId value(TypeId t) const { return m_table[t].b; }   // of a map

    std::string name(TypeId t) const {
        switch (kind(t)) {
        case Ty::Dyn:
            return "dyn";
        case Ty::Null:
            return "null_type";
        case Ty::Bool:
            return "bool";
        case Ty::Int:
            return "int";
        case Ty::Uint:
            return "uint";
        case Ty::Double:
            return "double";
        case Ty::String:
            return "string";
        case Ty::Bytes:
            return "bytes";
        case Ty::List:
            return "list(" + name(element(t)) + ")";
        case Ty::Map:
            return "map(" + name(element(t)) + ", " + name(value(t)) + ")";
        case Ty::Quantity:
            return "kubernetes.Quantity";
        case Ty::Semver:
            return "kubernetes.Semver";
        case Ty::Device:
            return "kubernetes.DRADevice";
        }
        return "?";
    }

    // Whether values of the two types may be compared (cel-go's type agreement): dyn and null
    // agree with anything, lists and maps by their parameters, everything else by kind.
    bool agree(TypeId a, TypeId b) const {
        const Ty ka = kind(a);
        const Ty kb = kind(b);
        if (ka == Ty::Dyn || kb == Ty::Dyn || ka == Ty::Null || kb == Ty::Null) return true;
        if (ka != kb) return false;
        if (ka == Ty::List) return agree(element(a), element(b));
        if (ka == Ty::Map) return agree(element(a), element(b)) && agree(value(a), value(b));
        return true;
    }

private:
    struct Entry {
        Ty kind;
        TypeId a, b;
    };
    TypeId find(Entry e) {
        for (TypeId i = 0; i < m_table.size(); ++i)
            if (m_table[i].kind == e.kind && m_table[i].a == e.a && m_table[i].b == e.b) return i;
        m_table.push_back(e);
        return static_cast<TypeId>(m_table.size() - 1);
    }
    std::vector<Entry> m_table;
};

constexpr TypeId kDyn = static_cast<TypeId>(Ty::Dyn);
constexpr TypeId kBool = static_cast<TypeId>(Ty::Bool);
constexpr TypeId kString = static_cast<TypeId>(Ty::String);
constexpr TypeId kQuantity = static_cast<TypeId>(Ty::Quantity);
constexpr TypeId kDevice = static_cast<TypeId>(Ty::Device);

constexpr std::string_view kTypeNames[] = {"int",  "uint", "double",    "bool", "string", "bytes",
                                           "list", "map",  "null_type", "type", "dyn"};

class Checker {
public:
    Checker(ProgramData& program, const CheckOptions& options) : m_p(program), m_options(options) {}
    Status run();

private:
    using Checked = std::optional<TypeId>;

    Checked fail(std::uint32_t pos, const std::string& what) {
        if (!m_error) m_error = Error{positionOf(m_p.source, pos) + ": " + what};
        return std::nullopt;
    }
    Checked noOverload(const Node& n, std::string_view function, const std::vector<TypeId>& args, bool member);
    Checked visit(std::int32_t i);
    Checked ident(Node& n);
    Checked select(Node& n, std::optional<std::int32_t> constantKey);
    Checked index(Node& n);
    Checked has(Node& n);
    Checked call(Node& n);
    Checked resolveOverload(Node& n, Fn fn, const std::vector<TypeId>& args);
    Checked unary(Node& n);
    Checked logical(Node& n);
    Checked conditional(Node& n);
    Checked aggregate(Node& n);
    Checked comprehension(Node& n);
    Checked bind(Node& n);
    Checked literalType(const Value& v);
    std::optional<std::string> namespacedFunction(std::int32_t receiver, std::string_view function) const;
    std::optional<std::int32_t> stringConstant(std::int32_t i) const;
    void precompile(Node& n, Fn fn);
    void fold(Node& n, Fn fn);
    void foldAggregate(Node& n);
    bool isLocal(std::string_view name) const;

    struct Local {
        std::int32_t name;
        std::int32_t slot;
        TypeId type;
    };

    ProgramData& m_p;
    const CheckOptions& m_options;
    Types m_types;
    std::vector<Local> m_locals;
    std::optional<Error> m_error;
};

Checker::Checked Checker::noOverload(const Node& n, std::string_view function, const std::vector<TypeId>& args,
                                     bool member) {
    std::string applied;
    for (std::size_t i = member ? 1 : 0; i < args.size(); ++i) {
        if (!applied.empty()) applied += ", ";
        applied += m_types.name(args[i]);
    }
    applied = member && !args.empty() ? m_types.name(args[0]) + ".(" + applied + ")" : "(" + applied + ")";
    return fail(n.pos, "found no matching overload for '" + std::string(function) + "' applied to '" + applied + "'");
}

Checker::Checked Checker::literalType(const Value& v) {
    switch (v.kind()) {
    case Kind::Null:
        return Types::of(Ty::Null);
    case Kind::Bool:
        return kBool;
    case Kind::Int:
        return Types::of(Ty::Int);
    case Kind::Uint:
        return Types::of(Ty::Uint);
    case Kind::Double:
        return Types::of(Ty::Double);
    case Kind::String:
        return kString;
    case Kind::Bytes:
        return Types::of(Ty::Bytes);
    default:
        return kDyn;
    }
}

bool Checker::isLocal(std::string_view name) const {
    return std::any_of(m_locals.begin(), m_locals.end(), [&](const Local& l) { return m_p.nameOf(l.name) == name; });
}

Checker::Checked Checker::ident(Node& n) {
    const std::string_view name = m_p.nameOf(n.name);
    if (!n.aux) {
        for (auto it = m_locals.rbegin(); it != m_locals.rend(); ++it) {
            if (m_p.nameOf(it->name) != name) continue;
            n.kind = NodeKind::Variable;
            n.slot = it->slot;
            return it->type;
        }
    }
    if (name == "device") {
        n.kind = NodeKind::DeviceRoot;
        return kDevice;
    }
    if (std::find(std::begin(kTypeNames), std::end(kTypeNames), name) != std::end(kTypeNames))
        return fail(n.pos, "unsupported: type value '" + std::string(name) + "' (type() and type denotations)");
    return fail(n.pos, "undeclared reference to '" + std::string(name) + "'");
}

std::optional<std::int32_t> Checker::stringConstant(std::int32_t i) const {
    const Node& n = m_p.node(i);
    if (n.kind != NodeKind::Literal || m_p.constants[static_cast<std::size_t>(n.a)].kind() != Kind::String)
        return std::nullopt;
    return n.a;
}

// e.f; `constantKey` when it is e["f"] with a constant string, whose operand is checked already.
Checker::Checked Checker::select(Node& n, std::optional<std::int32_t> constantKey) {
    const Checked operand = constantKey ? std::optional<TypeId>(m_p.node(n.a).type) : visit(n.a);
    if (!operand) return std::nullopt;
    const Node& target = m_p.node(n.a);
    const std::string field = constantKey ? std::string(m_p.constants[static_cast<std::size_t>(*constantKey)].text())
                                          : std::string(m_p.nameOf(n.name));
    if (constantKey) n.name = m_p.addName(field);
    if (target.kind == NodeKind::DeviceRoot) {
        if (constantKey)
            return fail(n.pos, "found no matching overload for '_[_]' applied to '(kubernetes.DRADevice, string)'");
        if (field == "driver") return n.kind = NodeKind::DeviceDriver, kString;
        if (field == "allowMultipleAllocations") return n.kind = NodeKind::DeviceMulti, kBool;
        const bool capacity = field == "capacity";
        if (!capacity && field != "attributes") return fail(n.pos, "undefined field '" + field + "'");
        n.kind = NodeKind::DeviceDomains;
        n.aux = capacity ? 1 : 0;
        return m_types.map(kString, m_types.map(kString, capacity ? kQuantity : kDyn));
    }
    if (target.kind == NodeKind::DeviceDomains) {
        n.kind = NodeKind::DeviceDomain;
        n.aux = target.aux;
        return m_types.map(kString, target.aux ? kQuantity : kDyn);
    }
    if (target.kind == NodeKind::DeviceDomain) {
        n.kind = NodeKind::DeviceEntry;
        n.aux = target.aux;
        n.name2 = n.name;
        n.name = target.name;
        return target.aux ? kQuantity : kDyn;
    }
    if (constantKey) n.kind = NodeKind::Select; // e["f"] on a map reads as e.f
    const Ty kind = m_types.kind(*operand);
    if (kind == Ty::Device && !constantKey) { // the device held by a variable
        if (field == "driver") return kString;
        if (field == "allowMultipleAllocations") return kBool;
        if (field == "attributes" || field == "capacity")
            return m_types.map(kString, m_types.map(kString, field == "capacity" ? kQuantity : kDyn));
        return fail(n.pos, "undefined field '" + field + "'");
    }
    if (kind == Ty::Dyn) return kDyn;
    if (kind == Ty::Map && m_types.agree(m_types.element(*operand), kString)) return m_types.value(*operand);
    return fail(n.pos, "type '" + m_types.name(*operand) + "' does not support field selection");
}

Checker::Checked Checker::index(Node& n) {
    const Checked container = visit(n.a);
    if (!container) return std::nullopt;
    if (const std::optional<std::int32_t> name = stringConstant(n.b)) {
        // The device's maps (and maps in general) take a constant name as a field.
        const NodeKind k = m_p.node(n.a).kind;
        if (k == NodeKind::DeviceRoot || k == NodeKind::DeviceDomains || k == NodeKind::DeviceDomain ||
            m_types.kind(*container) == Ty::Map)
            return select(n, name);
    }
    const Checked key = visit(n.b);
    if (!key) return std::nullopt;
    const Ty kind = m_types.kind(*container);
    const Ty keyKind = m_types.kind(*key);
    if (kind == Ty::Dyn) return kDyn;
    if (kind == Ty::List && (keyKind == Ty::Int || keyKind == Ty::Dyn)) return m_types.element(*container);
    if (kind == Ty::Map && m_types.agree(m_types.element(*container), *key)) return m_types.value(*container);
    return noOverload(n, "_[_]", {*container, *key}, false);
}

Checker::Checked Checker::has(Node& n) {
    const Checked operand = visit(n.a);
    if (!operand) return std::nullopt;
    const Ty kind = m_types.kind(*operand);
    if (kind == Ty::Device) {
        const std::string_view field = m_p.nameOf(n.name);
        if (field != "driver" && field != "attributes" && field != "capacity" && field != "allowMultipleAllocations")
            return fail(n.pos, "undefined field '" + std::string(field) + "'");
        return kBool;
    }
    if (kind == Ty::Dyn || kind == Ty::Map) return kBool;
    return fail(n.pos,
                "invalid argument to has(): type '" + m_types.name(*operand) + "' does not support field selection");
}

// "sets.contains" for sets.contains(...): a receiver that names no variable is a namespace.
std::optional<std::string> Checker::namespacedFunction(std::int32_t receiver, std::string_view function) const {
    std::string path(function);
    for (std::int32_t i = receiver;;) {
        const Node& n = m_p.node(i);
        if (n.kind == NodeKind::Select) {
            path = std::string(m_p.nameOf(n.name)) + "." + path;
            i = n.a;
            continue;
        }
        if (n.kind != NodeKind::Ident) return std::nullopt;
        const std::string_view root = m_p.nameOf(n.name);
        if ((!n.aux && isLocal(root)) || root == "device") return std::nullopt;
        return std::string(root) + "." + path;
    }
}

Checker::Checked Checker::call(Node& n) {
    const std::string name(m_p.nameOf(n.name));
    if (n.aux) {
        if (const std::optional<std::string> qualified = namespacedFunction(m_p.arg(n, 0), name))
            return fail(n.pos, "unsupported: function '" + *qualified + "'");
    }
    const Fn fn = functionNamed(name);
    if (fn == Fn::None) {
        if (name == "type") return fail(n.pos, "unsupported: type() (type values and type denotations)");
        for (std::int32_t i = 0; i < n.count; ++i)
            if (!visit(m_p.arg(n, i))) return std::nullopt;
        return fail(n.pos, "unsupported: function '" + name + "'" +
                               (isKnownUnsupported(name) ? " (not implemented by this evaluator)"
                                                         : " (undeclared reference to '" + name + "')"));
    }
    std::vector<TypeId> args;
    for (std::int32_t i = 0; i < n.count; ++i) {
        const Checked t = visit(m_p.arg(n, i));
        if (!t) return std::nullopt;
        args.push_back(*t);
    }
    n.fn = static_cast<std::uint16_t>(fn);
    const Checked result = resolveOverload(n, fn, args);
    if (!result) return std::nullopt;
    precompile(n, fn);
    fold(n, fn);
    if (m_error) return std::nullopt;
    return result;
}

Checker::Checked Checker::resolveOverload(Node& n, Fn fn, const std::vector<TypeId>& args) {
    const std::string_view name = functionName(fn);
    const auto kindOf = [&](std::size_t i) { return m_types.kind(args[i]); };
    switch (fn) {
    case Fn::Equals:
    case Fn::NotEquals:
        if (!m_types.agree(args[0], args[1])) return noOverload(n, name, args, false);
        return kBool;
    case Fn::Less:
    case Fn::LessEquals:
    case Fn::Greater:
    case Fn::GreaterEquals: {
        const auto numeric = [](Ty t) { return t == Ty::Int || t == Ty::Uint || t == Ty::Double; };
        const Ty a = kindOf(0);
        const Ty b = kindOf(1);
        const auto ordered = [&](Ty t) { return numeric(t) || t == Ty::String || t == Ty::Bytes || t == Ty::Bool; };
        const bool ok = a == Ty::Dyn
                            ? (b == Ty::Dyn || ordered(b))
                            : (b == Ty::Dyn ? ordered(a) : (numeric(a) && numeric(b)) || (a == b && ordered(a)));
        return ok ? std::optional<TypeId>(kBool) : noOverload(n, name, args, false);
    }
    case Fn::In: {
        const Ty container = kindOf(1);
        const bool ok = container == Ty::Dyn ||
                        (container == Ty::List && m_types.agree(args[0], m_types.element(args[1]))) ||
                        (container == Ty::Map && m_types.agree(args[0], m_types.element(args[1])));
        return ok ? std::optional<TypeId>(kBool) : noOverload(n, name, args, false);
    }
    case Fn::Dyn:
        if (args.size() != 1) return noOverload(n, name, args, false);
        return kDyn;
    case Fn::Add:
        if (args.size() == 2 && kindOf(0) == Ty::List && kindOf(1) == Ty::List) {
            if (!m_types.agree(args[0], args[1])) return noOverload(n, name, args, false);
            return m_types.kind(m_types.element(args[0])) == Ty::Dyn ? args[1] : args[0];
        }
        break;
    default:
        break;
    }
    std::optional<TypeId> result;
    bool ambiguous = false;
    for (const Signature& s : signaturesOf(fn)) {
        if ((n.aux ? !s.member : !s.global) || s.arity != args.size()) continue;
        bool accepts = true;
        for (std::size_t i = 0; i < args.size() && accepts; ++i)
            accepts = s.params[i] == Ty::Dyn || kindOf(i) == Ty::Dyn || kindOf(i) == s.params[i];
        if (!accepts) continue;
        TypeId t = Types::of(s.result);
        if (s.result == Ty::List) t = m_types.list(Types::of(s.element));
        if (s.result == Ty::Map) t = m_types.map(kDyn, kDyn);
        if (result && *result != t) ambiguous = true;
        result = t;
    }
    if (!result) return noOverload(n, name, args, n.aux != 0);
    return ambiguous ? kDyn : *result;
}

void Checker::precompile(Node& n, Fn fn) {
    if (m_error || (fn != Fn::Matches && fn != Fn::Find && fn != Fn::FindAll) || n.count < 2) return;
    const std::optional<std::int32_t> pattern = stringConstant(m_p.arg(n, 1));
    if (!pattern) return;
    const std::string_view text = m_p.constants[static_cast<std::size_t>(*pattern)].text();
    std::string problem;
    std::shared_ptr<const re2::RE2> re = compileRegex(text, problem);
    if (!re) {
        fail(m_p.node(m_p.arg(n, 1)).pos,
             "invalid regular expression " + shortDisplay(Value::string(text)) + ": " + problem);
        return;
    }
    m_p.regexes.push_back(std::move(re));
    n.regex = static_cast<std::int32_t>(m_p.regexes.size() - 1);
}

// quantity("10Gi") and semver("1.2.3") of constants are parsed once; the call's cost is kept.
void Checker::fold(Node& n, Fn fn) {
    if (m_error || (fn != Fn::QuantityOf && fn != Fn::SemverOf)) return;
    std::vector<Value> args;
    for (std::int32_t i = 0; i < n.count; ++i) {
        const Node& arg = m_p.node(m_p.arg(n, i));
        if (arg.kind != NodeKind::Literal) return;
        args.push_back(m_p.constants[static_cast<std::size_t>(arg.a)]);
    }
    Meter meter;
    CallContext context{meter};
    const Value result = invoke(fn, args, context);
    if (result.isError()) return; // left to the evaluation, where || may absorb it
    n.cost = static_cast<std::uint32_t>(std::min<std::uint64_t>(callCost(fn, args), UINT32_MAX));
    // Kept in the program's own storage and borrowed, so that threads evaluating the program at once
    // share no reference count.
    Value constant = result;
    if (result.kind() == Kind::Quantity) {
        m_p.quantities.push_back(result.asQuantity());
        constant = Value::quantity(&m_p.quantities.back());
    } else if (result.kind() == Kind::Semver) {
        m_p.versions.push_back(result.asSemver());
        constant = Value::semver(&m_p.versions.back());
    }
    n.folded = m_p.addConstant(std::move(constant));
}

Checker::Checked Checker::unary(Node& n) {
    const Checked operand = visit(n.a);
    if (!operand) return std::nullopt;
    const Ty kind = m_types.kind(*operand);
    if (n.kind == NodeKind::Not) {
        if (kind == Ty::Bool || kind == Ty::Dyn) return kBool;
        return noOverload(n, "!_", {*operand}, false);
    }
    if (kind == Ty::Int || kind == Ty::Double || kind == Ty::Dyn) return *operand;
    return noOverload(n, "-_", {*operand}, false);
}

Checker::Checked Checker::logical(Node& n) {
    std::vector<TypeId> types;
    bool ok = true;
    for (std::int32_t i = 0; i < n.count; ++i) {
        const Checked t = visit(m_p.arg(n, i));
        if (!t) return std::nullopt;
        types.push_back(*t);
        ok = ok && (m_types.kind(*t) == Ty::Bool || m_types.kind(*t) == Ty::Dyn);
    }
    if (!ok) return noOverload(n, n.kind == NodeKind::And ? "_&&_" : "_||_", types, false);
    return kBool;
}

Checker::Checked Checker::conditional(Node& n) {
    const Checked condition = visit(n.a);
    const Checked yes = condition ? visit(n.b) : std::nullopt;
    const Checked no = yes ? visit(n.c) : std::nullopt;
    if (!no) return std::nullopt;
    const Ty c = m_types.kind(*condition);
    if ((c != Ty::Bool && c != Ty::Dyn) || !m_types.agree(*yes, *no))
        return noOverload(n, "_?_:_", {*condition, *yes, *no}, false);
    return *yes == *no ? *yes : kDyn;
}

// [a, b] and {k: v}: elements (keys, values) of one type, as HomogeneousAggregateLiterals asks.
Checker::Checked Checker::aggregate(Node& n) {
    const bool map = n.kind == NodeKind::CreateMap;
    // cel-go joins the element types: the first sets the type, a dyn element makes it dyn (and
    // then accepts anything), any other element must agree.
    std::optional<TypeId> types[2];
    for (std::int32_t i = 0; i < n.count; ++i) {
        const std::int32_t item = m_p.arg(n, i);
        const Checked t = visit(item);
        if (!t) return std::nullopt;
        std::optional<TypeId>& expected = types[map ? i % 2 : 0];
        if (!expected || m_types.kind(*t) == Ty::Dyn)
            expected = expected && m_types.kind(*expected) == Ty::Dyn ? kDyn : *t;
        else if (m_types.kind(*expected) != Ty::Dyn && !m_types.agree(*expected, *t))
            return fail(m_p.node(item).pos,
                        "expected type '" + m_types.name(*expected) + "' but found '" + m_types.name(*t) + "'");
        if (map && i % 2 == 0) {
            const Ty k = m_types.kind(*t);
            if (k != Ty::Int && k != Ty::Uint && k != Ty::Bool && k != Ty::String)
                return fail(m_p.node(item).pos, "unsupported map key type '" + m_types.name(*t) + "'");
        }
    }
    foldAggregate(n);
    if (m_error) return std::nullopt;
    const TypeId first = types[0].value_or(kDyn);
    return map ? m_types.map(first, types[1].value_or(kDyn)) : m_types.list(first);
}

// A literal of constants is made once (cel-go's OptOptimize does the same; it costs nothing).
void Checker::foldAggregate(Node& n) {
    for (std::int32_t i = 0; i < n.count; ++i)
        if (m_p.node(m_p.arg(n, i)).kind != NodeKind::Literal) return;
    const auto constant = [&](std::int32_t i) {
        return m_p.constants[static_cast<std::size_t>(m_p.node(m_p.arg(n, i)).a)];
    };
    Value folded;
    if (n.kind == NodeKind::CreateList) {
        ListData& list = m_p.lists.emplace_back();
        for (std::int32_t i = 0; i < n.count; ++i) list.items.push_back(constant(i));
        folded = Value::list(&list);
    } else {
        MapData& map = m_p.maps.emplace_back();
        for (std::int32_t i = 0; i + 1 < n.count; i += 2) map.entries.emplace_back(constant(i), constant(i + 1));
        std::stable_sort(map.entries.begin(), map.entries.end(),
                         [](const auto& x, const auto& y) { return keyOrder(x.first, y.first) < 0; });
        for (std::size_t i = 1; i < map.entries.size(); ++i)
            if (keyOrder(map.entries[i - 1].first, map.entries[i].first) == 0) {
                fail(n.pos, "duplicate map key " + shortDisplay(map.entries[i].first));
                return;
            }
        folded = Value::map(&map);
    }
    n.kind = NodeKind::Literal;
    n.a = m_p.addConstant(std::move(folded));
}

Checker::Checked Checker::comprehension(Node& n) {
    const Checked range = visit(n.a);
    if (!range) return std::nullopt;
    const Ty kind = m_types.kind(*range);
    if (kind != Ty::List && kind != Ty::Map && kind != Ty::Dyn)
        return fail(n.pos, "expression of type '" + m_types.name(*range) +
                               "' cannot be range of a comprehension (must be list, map, or dynamic)");
    const TypeId element = kind == Ty::Dyn ? kDyn : m_types.element(*range);
    n.slot = m_p.slots++;
    m_locals.push_back({n.name, n.slot, element});
    const Checked predicate = n.b >= 0 ? visit(n.b) : std::optional<TypeId>(kBool);
    const Checked transform = predicate && n.c >= 0 ? visit(n.c) : predicate;
    m_locals.pop_back();
    if (!transform) return std::nullopt;
    const Ty p = m_types.kind(*predicate);
    if (p != Ty::Bool && p != Ty::Dyn)
        return fail(m_p.node(n.b).pos, "the predicate must be bool, not " + m_types.name(*predicate));
    switch (static_cast<ComprehensionKind>(n.aux)) {
    case ComprehensionKind::Map:
    case ComprehensionKind::MapFilter:
        return m_types.list(*transform);
    case ComprehensionKind::Filter:
        return m_types.list(element);
    default:
        return kBool;
    }
}

Checker::Checked Checker::bind(Node& n) {
    const Checked init = visit(n.a);
    if (!init) return std::nullopt;
    n.slot = m_p.slots++;
    m_locals.push_back({n.name, n.slot, *init});
    const Checked body = visit(n.b);
    m_locals.pop_back();
    return body;
}

Checker::Checked Checker::visit(std::int32_t i) {
    Node& n = m_p.node(i);
    Checked t;
    switch (n.kind) {
    case NodeKind::Literal:
        t = literalType(m_p.constants[static_cast<std::size_t>(n.a)]);
        break;
    case NodeKind::Ident:
        t = ident(n);
        break;
    case NodeKind::Select:
        t = select(n, std::nullopt);
        break;
    case NodeKind::Index:
        t = index(n);
        break;
    case NodeKind::Has:
        t = has(n);
        break;
    case NodeKind::Call:
        t = call(n);
        break;
    case NodeKind::Not:
    case NodeKind::Negate:
        t = unary(n);
        break;
    case NodeKind::And:
    case NodeKind::Or:
        t = logical(n);
        break;
    case NodeKind::Conditional:
        t = conditional(n);
        break;
    case NodeKind::CreateList:
    case NodeKind::CreateMap:
        t = aggregate(n);
        break;
    case NodeKind::Comprehension:
        t = comprehension(n);
        break;
    case NodeKind::Bind:
        t = bind(n);
        break;
    default:
        t = fail(n.pos, "internal error: node checked twice");
    }
    if (t) m_p.node(i).type = *t;
    return t;
}

Status Checker::run() {
    const Checked result = visit(m_p.root);
    if (!result || m_error) return m_error.value_or(Error{"type check failed"});
    const Ty kind = m_types.kind(*result);
    if (m_options.requireBool && kind != Ty::Bool && kind != Ty::Dyn)
        return Error{"the expression must evaluate to bool or the unknown type, not " + m_types.name(*result)};
    return {};
}

} // namespace

Status checkProgram(ProgramData& program, const CheckOptions& options) {
    return Checker(program, options).run();
}

} // namespace topodeck::cel
