#include "models/plan_trace_model.h"

#include "core/text/hostlist.h"

#include <algorithm>

namespace topodeck {

namespace {

constexpr std::size_t kMaxExpandedNames = 4096; // a hostlist naming more is not worth resolving

// The names engines give the whole cluster.
bool namesWholeCluster(std::string_view name) {
    return name == "root" || name == "<cluster-top-hypernode>" || name == "cluster";
}

std::string joined(const std::vector<std::string_view>& values, char separator) {
    std::string out;
    for (std::string_view value : values) {
        if (!out.empty()) out += separator;
        out += value;
    }
    return out;
}

} // namespace

TracePathResolver::TracePathResolver(ClusterSnapshotPtr snapshot) : m_snapshot(std::move(snapshot)) {
    if (!m_snapshot) return;
    const TopologyIndex& index = m_snapshot->index;
    std::vector<std::string_view> values;
    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.unlabelled) continue;
        values.clear();
        bool labelled = true;
        for (DomainId step : index.pathTo(id)) {
            if (step == kRootDomain) continue;
            labelled = labelled && !index.domain(step).unlabelled;
            values.push_back(index.domain(step).value);
        }
        if (!labelled) continue; // the tree selects no path through an unlabelled domain
        for (const char separator : {'/', '.', '-'}) {
            const auto [it, inserted] = m_paths.try_emplace(joined(values, separator), id);
            if (!inserted && it->second != id) it->second = kAmbiguous;
        }
        m_values.emplace(domain.value, id);
    }
    for (NodeId id = 0; id < m_snapshot->nodes.size(); ++id)
        if (const Node* node = m_snapshot->node(id); node && id < index.nodeSlots() && index.node(id).leaf != kNoDomain)
            m_nodes.emplace(node->name, id);
    // An NVLink domain is not in the tree: it selects the lowest domain holding its nodes.
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& stats = index.node(id);
        if (stats.leaf == kNoDomain || stats.nvlinkDomain == kNoNvlinkDomain) continue;
        const auto [it, inserted] = m_nvlink.try_emplace(index.nvlinkName(stats.nvlinkDomain), stats.leaf);
        if (!inserted) it->second = commonDomain(it->second, stats.leaf);
    }
}

DomainId TracePathResolver::commonDomain(DomainId a, DomainId b) const {
    const TopologyIndex& index = m_snapshot->index;
    const std::vector<DomainId> pa = index.pathTo(a);
    const std::vector<DomainId> pb = index.pathTo(b);
    DomainId common = kRootDomain;
    for (std::size_t i = 0; i < std::min(pa.size(), pb.size()) && pa[i] == pb[i]; ++i) common = pa[i];
    return common;
}

DomainId TracePathResolver::domainOf(const Target& target) const {
    return target.isNode ? m_snapshot->index.node(target.id).leaf : target.id;
}

std::optional<TracePathResolver::Target> TracePathResolver::findOne(std::string_view level,
                                                                    std::string_view name) const {
    if (name.empty()) return std::nullopt;
    const TopologyIndex& index = m_snapshot->index;
    // A path, spelled with any of the engines' separators.
    if (const auto it = m_paths.find(std::string(name)); it != m_paths.end() && it->second != kAmbiguous)
        return Target{false, it->second};
    // A node, alone or at the end of a path ("su-1/rack-1-04/node-7", Kueue's hostname level).
    const std::size_t slash = name.rfind('/');
    const std::string_view last = slash == std::string_view::npos ? name : name.substr(slash + 1);
    if (const auto it = m_nodes.find(last); it != m_nodes.end()) return Target{true, it->second};
    // A value; where values repeat, the one at the level named.
    const auto [first, end] = m_values.equal_range(std::string(name));
    std::optional<DomainId> found;
    int matches = 0;
    for (auto it = first; it != end; ++it) {
        const Domain& domain = index.domain(it->second);
        const TopologyLevel& l = index.spec().levels[std::size_t(domain.level)];
        const bool atLevel = level == l.name || level == l.nodeLabel;
        if (std::distance(first, end) == 1 || atLevel) {
            found = it->second;
            ++matches;
        }
    }
    if (matches == 1) return Target{false, *found};
    if (const auto it = m_nvlink.find(name); it != m_nvlink.end()) return Target{false, it->second};
    if (namesWholeCluster(name)) return Target{false, kRootDomain};
    return std::nullopt;
}

std::optional<TracePathResolver::Target> TracePathResolver::find(std::string_view level, std::string_view name,
                                                                 bool expand) const {
    if (auto one = findOne(level, name)) return one;
    // Slurm writes several switches or nodes as a hostlist ("rack-1-[01-04]", "n[01-18],m01").
    if (!expand || name.find_first_of("[,") == std::string_view::npos) return std::nullopt;
    auto names = expandHostlist(name);
    if (!names || names->empty() || names->size() > kMaxExpandedNames) return std::nullopt;
    std::optional<Target> all;
    for (const std::string& each : *names) {
        const std::optional<Target> target = findOne(level, each);
        if (!target) return std::nullopt;
        if (!all)
            all = target;
        else if (all->isNode && target->isNode && all->id == target->id)
            continue;
        else
            all = Target{false, commonDomain(domainOf(*all), domainOf(*target))};
    }
    return all;
}

QString TracePathResolver::pathFor(std::string_view level, std::string_view name) const {
    if (!m_snapshot) return {};
    std::optional<Target> target = find(level, name, true);
    // Slurm names a second switch or block of one domain (a rack split into NVLink partitions)
    // "<name>-2", "<name>-3": it lies in the domain the name without the suffix names.
    if (const std::size_t dash = name.rfind('-'); !target && dash != std::string_view::npos && dash + 1 < name.size() &&
                                                  std::all_of(name.begin() + std::ptrdiff_t(dash) + 1, name.end(),
                                                              [](char c) { return c >= '0' && c <= '9'; }))
        target = find(level, name.substr(0, dash), true);
    if (!target) return {};
    const TopologyIndex& index = m_snapshot->index;
    if (target->isNode) {
        const NodeStats& stats = index.node(target->id);
        const std::string path = stats.leaf == kRootDomain ? std::string() : index.pathName(stats.leaf) + '/';
        return QString::fromStdString(path + m_snapshot->node(target->id)->name);
    }
    if (target->id == kRootDomain) return QStringLiteral("/");
    return QString::fromStdString(index.pathName(target->id));
}

PlanTraceModel::PlanTraceModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTraceModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_answer.reset();
    endResetModel();
}

void PlanTraceModel::setResult(PlanAnswerPtr answer, int result, ClusterSnapshotPtr snapshot) {
    beginResetModel();
    m_rows.clear();
    m_answer = std::move(answer);
    if (m_answer && m_answer->error.empty() && result >= 0 && std::size_t(result) < m_answer->outcome.results.size()) {
        const PlacementResult& r = m_answer->outcome.results[std::size_t(result)];
        const TracePathResolver resolver(std::move(snapshot));
        m_rows.push_back({MessageRow, tr("message"), QString(), QString::fromStdString(r.message), QString(), false});
        for (const std::string& note : r.notes)
            m_rows.push_back({NoteRow, tr("note"), QString(), QString::fromStdString(note), QString(), false});
        for (const TraceEntry& entry : r.trace)
            m_rows.push_back({TraceRow, QString::fromStdString(entry.level), QString::fromStdString(entry.domain),
                              QString::fromStdString(entry.reason), resolver.pathFor(entry.level, entry.domain),
                              entry.taken});
    }
    endResetModel();
}

QString PlanTraceModel::pathAt(int row) const {
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)].path : QString();
}

int PlanTraceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PlanTraceModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanTraceModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LevelColumn:
            return row.taken ? tr("✓ %1").arg(row.level) : row.level;
        case DomainColumn:
            return row.domain;
        case WhyColumn:
            return row.why;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == WhyColumn) return row.why;
        if (index.column() == DomainColumn && !row.path.isEmpty())
            return row.path == QLatin1String("/") ? tr("Selects the whole cluster") : tr("Selects %1").arg(row.path);
        return {};
    case PathRole:
        return row.path;
    case TakenRole:
        return row.taken;
    case KindRole:
        return int(row.kind);
    default:
        return {};
    }
}

QVariant PlanTraceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
    switch (section) {
    case LevelColumn:
        return tr("Level");
    case DomainColumn:
        return tr("Domain");
    case WhyColumn:
        return tr("Why");
    default:
        return {};
    }
}

} // namespace topodeck
