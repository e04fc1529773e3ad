; satellite: satellites turn between directions and take images with calibrated, powered instruments.
(define (domain satellite)
    (:requirements :strips :typing)
    (:types direction instrument mode satellite)
    (:predicates (calibrated ?i - instrument)
                 (calibration_target ?i - instrument ?d - direction)
                 (have_image ?d - direction ?m - mode)
                 (on_board ?i - instrument ?s - satellite)
                 (pointing ?s - satellite ?d - direction)
                 (power_avail ?s - satellite)
                 (power_on ?i - instrument)
                 (supports ?i - instrument ?m - mode))
    (:action turn_to
        :parameters (?s - satellite ?d_new - direction ?d_prev - direction)
        :precondition (pointing ?s ?d_prev)
        :effect (and (pointing ?s ?d_new) (not (pointing ?s ?d_prev))))
    ; one power unit per satellite; switching an instrument on loses its calibration
    (:action switch_on
        :parameters (?i - instrument ?s - satellite)
        :precondition (and (on_board ?i ?s) (power_avail ?s))
        :effect (and (power_on ?i) (not (calibrated ?i)) (not (power_avail ?s))))
    (:action switch_off
        :parameters (?i - instrument ?s - satellite)
        :precondition (and (on_board ?i ?s) (power_on ?i))
        :effect (and (power_avail ?s) (not (power_on ?i))))
    (:action calibrate
        :parameters (?s - satellite ?i - instrument ?d - direction)
        :precondition (and (on_board ?i ?s) (calibration_target ?i ?d) (pointing ?s ?d) (power_on ?i))
        :effect (calibrated ?i))
    (:action take_image
        :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
        :precondition (and (calibrated ?i) (on_board ?i ?s) (supports ?i ?m) (power_on ?i) (pointing ?s ?d))
        :effect (have_image ?d ?m))
)
