#pragma once

#include "core/topology/label_selector.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTimer;

namespace topodeck {

// A line for a Kubernetes label selector (`rack=rack-1-04, zone in (a,b), !unschedulable`) that
// narrows the tree and dims the map. Typing applies it after a short pause; Enter at once; Esc
// clears it. Text that does not parse shows its error in red below the line and the last valid
// filter stays in effect, which the message says.
class FilterBar : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 150;

    explicit FilterBar(QWidget* parent = nullptr);

    QLineEdit* lineEdit() const { return m_edit; }
    // The selector in effect: null when there is no filter (empty text).
    const std::shared_ptr<const LabelSelector>& selector() const { return m_selector; }
    // Why the text does not parse, as shown; empty when it does.
    const QString& errorText() const { return m_error; }
    // Puts text in the line and applies it at once (the command line's --filter).
    void setFilterText(const QString& text);

Q_SIGNALS:
    // A different selector is in effect; null: no filter.
    void selectorChanged(std::shared_ptr<const topodeck::LabelSelector> selector);

public Q_SLOTS:
    // Puts the keyboard in the line, its text selected, so typing replaces the filter.
    void focusFilter();
    void clearFilter();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void apply();
    void showError(const QString& error);

    QLineEdit* m_edit;
    QLabel* m_message;
    QTimer* m_debounce;
    std::shared_ptr<const LabelSelector> m_selector;
    QString m_error;
};

} // namespace topodeck
