#include "core/cel/device_selector.h"

#include "core/cel/cel_checker.h"
#include "core/cel/cel_eval.h"
#include "core/cel/cel_functions.h"
#include "core/cel/cel_parser.h"

#include <algorithm>
#include <optional>

namespace topodeck::cel {

const std::string& Program::expression() const {
    static const std::string kEmpty;
    return m_data ? m_data->source : kEmpty;
}

Result<Program> compile(std::string_view expression, const CompileOptions& options) {
    auto data = std::make_shared<ProgramData>();
    data->costLimit = options.costLimit;
    if (Status parsed = parseExpression(expression, *data); !parsed) return parsed.error();
    if (Status checked = checkProgram(*data, CheckOptions{options.requireBool}); !checked) return checked.error();
    Program program;
    program.m_data = std::move(data);
    return program;
}

Evaluation evaluate(const Program& program, const DeviceView& device) {
    if (program.empty()) return {Value::staticError("no compiled expression"), 0};
    EvalOutcome outcome = evaluateProgram(program.data(), device);
    return {std::move(outcome.value), outcome.cost};
}

Result<bool> matches(const Program& program, const DeviceView& device) {
    if (program.empty()) return Error{"no compiled expression"};
    const EvalOutcome outcome = evaluateProgram(program.data(), device);
    const Value& v = outcome.value;
    if (v.kind() == Kind::Bool) return v.asBool();
    if (v.isError()) return Error{std::string(v.text())};
    return Error{"CEL result of type " + std::string(kindName(v.kind())) + " could not be converted to bool"};
}

namespace {

// Reads the program for fieldsRead: direct lookups name their field; a cel.bind variable holding
// device.attributes["<domain>"] (as in cel.bind(dra, device.attributes["dra.example.com"],
// dra.a && dra.b)) is followed through constant selections.
class FieldWalker {
public:
    FieldWalker(const ProgramData& p, FieldUse& use) : m_p(p), m_use(use), m_bound(static_cast<std::size_t>(p.slots)) {}
    void visit(std::int32_t i);

private:
    struct Domain {
        bool capacity;
        std::string_view name;
    };
    std::optional<Domain> domainOf(std::int32_t i) const {
        const Node& n = m_p.node(i);
        if (n.kind == NodeKind::DeviceDomain) return Domain{n.aux != 0, m_p.nameOf(n.name)};
        if (n.kind == NodeKind::Variable) return m_bound[static_cast<std::size_t>(n.slot)];
        return std::nullopt;
    }
    std::optional<std::string_view> stringConstant(std::int32_t i) const {
        const Node& n = m_p.node(i);
        if (n.kind != NodeKind::Literal) return std::nullopt;
        const Value& v = m_p.constants[static_cast<std::size_t>(n.a)];
        return v.kind() == Kind::String ? std::optional<std::string_view>(v.text()) : std::nullopt;
    }
    void entry(const Domain& d, std::string_view id) {
        (d.capacity ? m_use.capacity : m_use.attributes).push_back(std::string(d.name) + "/" + std::string(id));
    }

    const ProgramData& m_p;
    FieldUse& m_use;
    std::vector<std::optional<Domain>> m_bound;
};

void FieldWalker::visit(std::int32_t i) {
    const Node& n = m_p.node(i);
    switch (n.kind) {
    case NodeKind::Literal:
        return;
    case NodeKind::DeviceDriver:
        m_use.driver = true;
        return;
    case NodeKind::DeviceMulti:
        m_use.allowMultipleAllocations = true;
        return;
    case NodeKind::DeviceEntry:
        entry(Domain{n.aux != 0, m_p.nameOf(n.name)}, m_p.nameOf(n.name2));
        return;
    case NodeKind::DeviceRoot:
    case NodeKind::DeviceDomains:
    case NodeKind::DeviceDomain:
        m_use.dynamic = true;
        return;
    case NodeKind::Variable:
        if (m_bound[static_cast<std::size_t>(n.slot)]) m_use.dynamic = true; // the whole domain map
        return;
    case NodeKind::Select:
    case NodeKind::Has:
        if (const auto d = domainOf(n.a)) return entry(*d, m_p.nameOf(n.name));
        if (n.kind == NodeKind::Has && m_p.node(n.a).kind == NodeKind::DeviceRoot) return; // has(device.driver)
        break;
    case NodeKind::Index:
        if (const auto d = domainOf(n.a); d && stringConstant(n.b)) return entry(*d, *stringConstant(n.b));
        break;
    case NodeKind::Call:
        if (static_cast<Fn>(n.fn) == Fn::In && n.count == 2) {
            const auto d = domainOf(m_p.arg(n, 1));
            if (const auto id = stringConstant(m_p.arg(n, 0)); d && id) return entry(*d, *id);
        }
        break;
    case NodeKind::Bind:
        if (const auto d = domainOf(n.a); d && m_p.node(n.a).kind == NodeKind::DeviceDomain) {
            m_bound[static_cast<std::size_t>(n.slot)] = d;
            visit(n.b);
            return;
        }
        break;
    default:
        break;
    }
    for (const std::int32_t child : {n.a, n.b, n.c})
        if (child >= 0) visit(child);
    for (std::int32_t k = 0; k < n.count; ++k) visit(m_p.arg(n, k));
}

void sortUnique(std::vector<std::string>& names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
}

} // namespace

FieldUse fieldsRead(const Program& program) {
    FieldUse use;
    if (program.empty()) return use;
    FieldWalker(program.data(), use).visit(program.data().root);
    sortUnique(use.attributes);
    sortUnique(use.capacity);
    return use;
}

} // namespace topodeck::cel
