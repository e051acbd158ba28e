#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <algorithm>
#include <vector>

namespace topodeck {

// A flat table whose rows are computed again from each snapshot (or answer) and replaced whole.
// The replacement is announced as rows removed or inserted at the end and the rest changed, not
// as a reset: fresh figures arrive every second, and a view must keep its scroll position,
// current row and selection through them.
class SnapshotTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    // Puts `next` in place of `rows` (the subclass's row store), announced as above; a Row
    // compares with ==.
    template <typename Row> void replaceRows(std::vector<Row>& rows, std::vector<Row> next);
    // A count in the locale's digits, as the tables show every figure.
    static QString number(qint64 n);
    static QVariant alignedLeft();
    static QVariant alignedRight();
};

template <typename Row> void SnapshotTableModel::replaceRows(std::vector<Row>& rows, std::vector<Row> next) {
    const int before = int(rows.size());
    const int after = int(next.size());
    const int kept = std::min(before, after);
    const bool keptChanged = !std::equal(rows.begin(), rows.begin() + kept, next.begin());
    // The rows that stay keep their old values until the end is settled: a view (and
    // QAbstractItemModelTester) reads the row next to those removed or inserted meanwhile.
    if (after < before) {
        beginRemoveRows(QModelIndex(), after, before - 1);
        rows.erase(rows.begin() + after, rows.end());
        endRemoveRows();
    } else if (after > before) {
        beginInsertRows(QModelIndex(), before, after - 1);
        rows.insert(rows.end(), next.begin() + before, next.end());
        endInsertRows();
    }
    rows = std::move(next);
    // Nothing said when nothing changed (snapshots come every second). New rows are announced as
    // changed too: a header fits its ResizeToContents sections on dataChanged, not on insertion.
    if (after > 0 && (keptChanged || after > before))
        Q_EMIT dataChanged(index(0, 0), index(after - 1, columnCount() - 1));
}

} // namespace topodeck
