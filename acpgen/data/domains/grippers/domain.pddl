; gripper-strips (multi-robot "grippers"): robots with two grippers each carry balls
; between rooms; every room is directly reachable from every other room.
(define (domain gripper-strips)
    (:requirements :strips :typing)
    (:types ball gripper robot room - object)
    (:predicates (at ?o - ball ?x - room)
                 (at-robby ?r - robot ?x - room)
                 (carry ?r - robot ?o - ball ?g - gripper)
                 (free ?r - robot ?g - gripper))
    (:action drop
        :parameters (?r - robot ?b - ball ?x - room ?g - gripper)
        :precondition (and (carry ?r ?b ?g) (at-robby ?r ?x))
        :effect (and (at ?b ?x) (free ?r ?g) (not (carry ?r ?b ?g))))
    (:action move
        :parameters (?r - robot ?from - room ?to - room)
        :precondition (at-robby ?r ?from)
        :effect (and (at-robby ?r ?to) (not (at-robby ?r ?from))))
    (:action pick
        :parameters (?r - robot ?b - ball ?x - room ?g - gripper)
        :precondition (and (at ?b ?x) (at-robby ?r ?x) (free ?r ?g))
        :effect (and (carry ?r ?b ?g) (not (at ?b ?x)) (not (free ?r ?g))))
)
