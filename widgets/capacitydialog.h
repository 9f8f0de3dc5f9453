#pragma once
// "Find capacity": the SLOs a capacity search holds each level to, and how it
// climbs (start, max, each level's length, growth). The options are checked
// as the command line checks them (control/capacitysearch.h); OK is only
// enabled when they can run.
#include "runsession.h"

#include <QDialog>

class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

class CapacityDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CapacityDialog(QWidget* parent = nullptr);
    // The options as entered; valid when OK was enabled.
    stampede::CapacityOptions options() const { return m_options; }
    QString problem() const; // why OK is disabled; empty when it is not
    void setSlos(const QString& lines);

private:
    void check();

    QPlainTextEdit* m_slos;
    QDoubleSpinBox* m_start;
    QDoubleSpinBox* m_max;
    QSpinBox* m_step;
    QDoubleSpinBox* m_growth;
    QLabel* m_problem;
    QPushButton* m_ok;
    stampede::CapacityOptions m_options;
};
