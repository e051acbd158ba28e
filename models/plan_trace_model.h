#pragma once

#include "session/cluster_session.h"

#include <QAbstractTableModel>

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace topodeck {

// Which domain or node of the hierarchy shown a trace entry names. Each engine names candidates in
// its own terms: Kueue by path ("su-1/rack-1-04", a node last), KAI by dotted path
// ("su-1.rack-1-04"), Volcano by HyperNode name (the value, or the path where values repeat),
// Slurm by switch or block name (the value; parent path joined by '-' where values repeat; an
// aggregated block as a hostlist "rack-1-[01-04]"), the NVLink domain by its name, the whole
// cluster as "root" or "<cluster-top-hypernode>". A name that covers several domains (a hostlist,
// an NVLink domain) selects the lowest domain holding all of them.
class TracePathResolver {
public:
    TracePathResolver() = default;
    explicit TracePathResolver(ClusterSnapshotPtr snapshot);

    // A path as MainWindow::selectPath takes it ("su-1/rack-1-04", "su-1/rack-1-04/node-7"), "/"
    // for the whole cluster, or empty when the name is not of the hierarchy shown.
    QString pathFor(std::string_view level, std::string_view name) const;

private:
    struct Target {
        bool isNode = false;
        std::uint32_t id = 0;
    };
    std::optional<Target> find(std::string_view level, std::string_view name, bool expand) const;
    std::optional<Target> findOne(std::string_view level, std::string_view name) const;
    DomainId commonDomain(DomainId a, DomainId b) const;
    DomainId domainOf(const Target& target) const;

    ClusterSnapshotPtr m_snapshot;
    static constexpr DomainId kAmbiguous = kNoDomain;
    // Paths spelled "/", "." and "-" between values, each to its domain (kAmbiguous when two
    // domains spell the same).
    std::unordered_map<std::string, DomainId> m_paths;
    std::unordered_multimap<std::string, DomainId> m_values;
    std::unordered_map<std::string_view, NodeId> m_nodes;    // views into the snapshot's node names
    std::unordered_map<std::string_view, DomainId> m_nvlink; // NVLink domain name -> lowest domain holding it
};

// One engine's trace as rows: its message, its notes, then each trace entry (level, domain, why),
// each with the path of the hierarchy shown that it selects.
class PlanTraceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LevelColumn, DomainColumn, WhyColumn, ColumnCount };
    enum Role {
        PathRole = Qt::UserRole + 1, // QString: what the row selects (see TracePathResolver), or empty
        TakenRole,                   // bool: the engine took this candidate
        KindRole,                    // int: RowKind
    };
    enum RowKind { MessageRow, NoteRow, TraceRow };

    explicit PlanTraceModel(QObject* parent = nullptr);

    // The trace of answer->outcome.results[result] (none when out of range), its names resolved
    // in `snapshot` (the one shown, which may be newer than the one the dry-run ran on).
    void setResult(PlanAnswerPtr answer, int result, ClusterSnapshotPtr snapshot);
    void clear();
    QString pathAt(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RowKind kind = TraceRow;
        QString level;
        QString domain;
        QString why;
        QString path;
        bool taken = false;
    };
    std::vector<Row> m_rows;
    PlanAnswerPtr m_answer; // keeps what the rows describe alive for as long as they are shown
};

} // namespace topodeck
