#pragma once

#include "session/cluster_session.h"

#include <QAbstractTableModel>
#include <QColor>

namespace topodeck {

// A change plan's label changes, one row per node and label, in the plan's order (by node, then
// key): the node, the label, the value it has now and the value it gets. A removal's after and a
// new label's before are empty and say so in their tooltip.
class LabelChangesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NodeColumn, KeyColumn, BeforeColumn, AfterColumn, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole + 1, // QString: "set", "change" or "remove"
    };

    explicit LabelChangesModel(QObject* parent = nullptr);

    void setPreview(ChangePreviewPtr preview); // null: empty
    const ChangePreviewPtr& preview() const { return m_preview; }
    // What goes and what comes, as the theme colours them.
    void setDiffColours(const QColor& removed, const QColor& added);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ChangePreviewPtr m_preview;
    QColor m_removed{0xc6, 0x28, 0x28};
    QColor m_added{0x2e, 0x7d, 0x32};
};

} // namespace topodeck
