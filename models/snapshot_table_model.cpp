#include "models/snapshot_table_model.h"

#include <QLocale>

namespace topodeck {

QString SnapshotTableModel::number(qint64 n) {
    return QLocale().toString(n);
}

QVariant SnapshotTableModel::alignedLeft() {
    return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
}

QVariant SnapshotTableModel::alignedRight() {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
}

} // namespace topodeck
