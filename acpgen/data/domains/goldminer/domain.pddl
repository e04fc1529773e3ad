; gold-miner-typed: a robot on a grid clears rock with bombs or a laser to reach and pick up the gold.
(define (domain gold-miner-typed)
    (:requirements :typing)
    (:types loc)
    (:predicates (arm-empty) (bomb-at ?x - loc) (clear ?x - loc) (connected ?x - loc ?y - loc)
                 (gold-at ?x - loc) (hard-rock-at ?x - loc) (holds-bomb) (holds-gold) (holds-laser)
                 (laser-at ?x - loc) (robot-at ?x - loc) (soft-rock-at ?x - loc))
    (:action move
        :parameters (?x - loc ?y - loc)
        :precondition (and (robot-at ?x) (connected ?x ?y) (clear ?y))
        :effect (and (robot-at ?y) (not (robot-at ?x))))
    (:action pickup-laser
        :parameters (?x - loc)
        :precondition (and (robot-at ?x) (laser-at ?x) (arm-empty))
        :effect (and (holds-laser) (not (arm-empty)) (not (laser-at ?x))))
    (:action putdown-laser
        :parameters (?x - loc)
        :precondition (and (robot-at ?x) (holds-laser))
        :effect (and (arm-empty) (laser-at ?x) (not (holds-laser))))
    ; the bomb supply is endless: bomb-at stays true
    (:action pickup-bomb
        :parameters (?x - loc)
        :precondition (and (robot-at ?x) (bomb-at ?x) (arm-empty))
        :effect (and (holds-bomb) (not (arm-empty))))
    (:action detonate-bomb
        :parameters (?x - loc ?y - loc)
        :precondition (and (robot-at ?x) (holds-bomb) (connected ?x ?y) (soft-rock-at ?y))
        :effect (and (arm-empty) (clear ?y) (not (holds-bomb)) (not (soft-rock-at ?y))))
    ; the laser destroys whatever the target cell holds, gold included
    (:action fire-laser
        :parameters (?x - loc ?y - loc)
        :precondition (and (robot-at ?x) (holds-laser) (connected ?x ?y))
        :effect (and (clear ?y) (not (soft-rock-at ?y)) (not (gold-at ?y)) (not (hard-rock-at ?y))))
    (:action pick-gold
        :parameters (?x - loc)
        :precondition (and (robot-at ?x) (arm-empty) (gold-at ?x))
        :effect (and (holds-gold) (not (arm-empty))))
)
