#pragma once

#include "core/placement/reports/plan_query.h"
#include "core/placement/whatif/what_if_sequence.h"
#include "core/result.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace topodeck {

// The steps of a what-if, in the order they apply: what each does (Place a gang, Drain or Fail a
// node or domain), what it names (the target, or for Place the planner's flags), and what it did
// when last applied, numbered by the vertical header. The target column is editable; rows move and
// go (moveRows, removeRows).
class WhatIfListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, TargetColumn, OutcomeColumn, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole + 1, // int: WhatIfStep::Kind
        AppliedRole,                 // bool: applied when last run; invalid before
    };

    struct Step {
        WhatIfStep::Kind kind = WhatIfStep::Kind::Fail;
        QString text;    // Drain, Fail: a node name or domain path; Place: plan flags ("--pods 8 ...")
        QString outcome; // what it did when last applied; empty before
        bool hasOutcome = false;
        bool applied = false;
    };

    explicit WhatIfListModel(QObject* parent = nullptr);

    // Appends a step; returns its row.
    int addStep(WhatIfStep::Kind kind, const QString& text);
    const std::vector<Step>& steps() const { return m_steps; }
    void clear();
    // The steps as the session applies them. A Place step's flags are read as `topodeckctl plan`
    // reads them (a gang by flags or --sbatch; --engine picks the engine); errors name the step.
    Result<std::vector<WhatIfStep>> whatIfSteps() const;
    // What each step did, by row (as many as there are rows; others are left as they are).
    void setOutcomes(const std::vector<WhatIfStepOutcome>& outcomes);
    void clearOutcomes();

    static QString kindName(WhatIfStep::Kind kind);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    bool removeRows(int row, int count, const QModelIndex& parent = QModelIndex()) override;
    bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count, const QModelIndex& destinationParent,
                  int destinationChild) override;

private:
    bool isStepIndex(const QModelIndex& index) const;

    std::vector<Step> m_steps;
};

} // namespace topodeck
